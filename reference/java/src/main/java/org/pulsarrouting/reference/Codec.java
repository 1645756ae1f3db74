package org.pulsarrouting.reference;

import java.util.ArrayList;
import java.util.List;

/** The protocol's encodings of Java values that JSON strings cannot carry. */
final class Codec {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Codec() {}

    static byte[] bytes(String hex) {
        if (hex.length() % 2 != 0) {
            throw new ProtocolError("odd-length hex: " + hex.length());
        }
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) ((digit(hex.charAt(2 * i)) << 4) | digit(hex.charAt(2 * i + 1)));
        }
        return out;
    }

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }

    /** A Java String from its UTF-16 code units, so lone surrogates survive. */
    static String u16(String hex) {
        if (hex.length() % 4 != 0) {
            throw new ProtocolError("u16hex length is not a multiple of 4: " + hex.length());
        }
        char[] out = new char[hex.length() / 4];
        for (int i = 0; i < out.length; i++) {
            int v = 0;
            for (int j = 0; j < 4; j++) {
                v = (v << 4) | digit(hex.charAt(4 * i + j));
            }
            out[i] = (char) v;
        }
        return new String(out);
    }

    static String u16hex(String s) {
        char[] out = new char[s.length() * 4];
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            for (int j = 0; j < 4; j++) {
                out[4 * i + j] = HEX[(c >> (12 - 4 * j)) & 0xf];
            }
        }
        return new String(out);
    }

    /** Bundle boundaries as the broker stores them in its policies. */
    static List<String> boundaryStrings(long[] boundaries) {
        List<String> out = new ArrayList<>(boundaries.length);
        for (long b : boundaries) {
            out.add(String.format("0x%08x", b));
        }
        return out;
    }

    static long[] boundaryLongs(List<String> boundaries) {
        long[] out = new long[boundaries.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Long.decode(boundaries.get(i));
        }
        return out;
    }

    private static int digit(char c) {
        int d = Character.digit(c, 16);
        if (d < 0) {
            throw new ProtocolError("not a hex digit: " + c);
        }
        return d;
    }
}
