package org.pulsarrouting.reference;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.pulsar.common.naming.TopicName;

/**
 * Answers PROTOCOL.md requests, one JSON object a line, from the real Pulsar
 * 4.2.4 classes. {@code --golden GOLDEN_DIR OUT_DIR} prints the committed
 * golden files again instead (see {@link Golden}).
 */
public final class Harness {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Harness() {}

    public static void main(String[] args) throws Exception {
        // Only answers may reach stdout: whatever a library prints goes to stderr.
        PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        if (args.length > 0 && args[0].equals("--golden")) {
            if (args.length != 3) {
                System.err.println("usage: Harness --golden GOLDEN_DIR OUT_DIR");
                System.exit(2);
            }
            Golden.run(new Ops(), java.nio.file.Path.of(args[1]), java.nio.file.Path.of(args[2]));
            return;
        }
        if (args.length > 0) {
            System.err.println("usage: Harness [--golden GOLDEN_DIR OUT_DIR]  (requests on stdin)");
            System.exit(2);
        }
        serve(new Ops(), stdout);
    }

    private static void serve(Ops ops, PrintStream stdout) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        Writer out = new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), 1 << 16);
        JsonGenerator gen = MAPPER.getFactory().createGenerator(out);
        gen.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
        gen.configure(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM, false);
        gen.setRootValueSeparator(null);
        long served = 0;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            MAPPER.writeTree(gen, answer(ops, line));
            gen.flush();
            out.write('\n');
            // Flush only when the client has nothing more queued: a pipelined
            // batch is answered in big writes, a lone request at once.
            if (!in.ready()) {
                out.flush();
            }
            // TopicName.get caches every name it parses, as the broker does;
            // the broker trims that cache now and then, and so does this loop.
            if (++served % 65536 == 0) {
                TopicName.clearIfReachedMaxCapacity(100_000);
            }
        }
        out.flush();
    }

    static ObjectNode answer(Ops ops, String line) {
        ObjectNode out = Ops.JSON.objectNode();
        JsonNode req;
        try {
            req = MAPPER.readTree(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            out.putNull("id");
            return protocolError(out, "malformed JSON: " + e.getOriginalMessage());
        }
        JsonNode id = req == null ? null : req.get("id");
        if (id == null || !id.isIntegralNumber()) {
            out.putNull("id");
            return protocolError(out, "a request is an object with an integer \"id\"");
        }
        out.set("id", id);
        JsonNode op = req.get("op");
        if (op == null || !op.isTextual()) {
            return protocolError(out, "missing \"op\"");
        }
        out.put("ok", true);
        try {
            ops.dispatch(op.asText(), req, out);
        } catch (ProtocolError e) {
            return protocolError(reset(out, id), e.getMessage());
        } catch (Throwable e) {
            Throwable t = unwrap(e);
            ObjectNode err = reset(out, id);
            err.put("ok", false);
            err.put("error_class", t.getClass().getName());
            err.put("error_message", t.getMessage());
            return err;
        }
        return out;
    }

    private static ObjectNode reset(ObjectNode out, JsonNode id) {
        out.removeAll();
        out.set("id", id);
        return out;
    }

    private static ObjectNode protocolError(ObjectNode out, String message) {
        out.put("ok", false);
        out.put("error_class", "protocol");
        out.put("error_message", message);
        return out;
    }

    /** The exception the Pulsar code threw, out of the future that carried it. */
    static Throwable unwrap(Throwable e) {
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
