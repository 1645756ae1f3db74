//! Support for the fuzz targets in `fuzz_targets/`.
//!
//! [`reference`](mod@reference) holds deliberately naive implementations,
//! written from each algorithm's definition for reading rather than speed
//! and sharing no code with `pulsar_routing`; the targets check the core
//! against them.
//!
//! Run the targets with `scripts/fuzz-smoke.sh` (all of them, briefly) or
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run <target>` from the workspace root.

pub mod reference {
    //! Naive references. Each one is a line-by-line transcription of the
    //! original (C or Java) so that a reviewer can check it by eye.

    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;

    /// MurmurHash3 x86_32 with seed 0, in the shape of Austin Appleby's
    /// `MurmurHash3_x86_32`: body, tail `switch` with fall-through, then
    /// finalisation.
    #[must_use]
    pub fn murmur3_32_raw(data: &[u8]) -> u32 {
        let nblocks = data.len() / 4;
        let mut h1: u32 = 0;

        for i in 0..nblocks {
            let mut k1 = u32::from(data[4 * i])
                | (u32::from(data[4 * i + 1]) << 8)
                | (u32::from(data[4 * i + 2]) << 16)
                | (u32::from(data[4 * i + 3]) << 24);
            k1 = k1.wrapping_mul(C1);
            k1 = k1.rotate_left(15);
            k1 = k1.wrapping_mul(C2);
            h1 ^= k1;
            h1 = h1.rotate_left(13);
            h1 = h1.wrapping_mul(5).wrapping_add(0xe654_6b64);
        }

        let tail = &data[nblocks * 4..];
        let mut k1: u32 = 0;
        if tail.len() == 3 {
            k1 ^= u32::from(tail[2]) << 16;
        }
        if tail.len() >= 2 {
            k1 ^= u32::from(tail[1]) << 8;
        }
        if !tail.is_empty() {
            k1 ^= u32::from(tail[0]);
            k1 = k1.wrapping_mul(C1);
            k1 = k1.rotate_left(15);
            k1 = k1.wrapping_mul(C2);
            h1 ^= k1;
        }

        // The C code folds the length as a 32-bit int.
        h1 ^= data.len() as u32;
        h1 ^= h1 >> 16;
        h1 = h1.wrapping_mul(0x85eb_ca6b);
        h1 ^= h1 >> 13;
        h1 = h1.wrapping_mul(0xc2b2_ae35);
        h1 ^= h1 >> 16;
        h1
    }

    /// Java's `String.hashCode()`: `h = 31 * h + c` over the UTF-16 code
    /// units, in `int` arithmetic.
    #[must_use]
    pub fn java_string_hashcode(s: &str) -> i32 {
        let mut h: i32 = 0;
        for unit in s.encode_utf16() {
            h = h.wrapping_mul(31).wrapping_add(i32::from(unit));
        }
        h
    }

    /// `Base64.getEncoder().encodeToString(bytes)`: standard alphabet, with
    /// `=` padding.
    #[must_use]
    pub fn base64(bytes: &[u8]) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for group in bytes.chunks(3) {
            let b0 = group[0];
            let b1 = group.get(1).copied().unwrap_or(0);
            let b2 = group.get(2).copied().unwrap_or(0);
            out.push(char::from(ALPHABET[usize::from(b0 >> 2)]));
            out.push(char::from(
                ALPHABET[usize::from(((b0 & 0x03) << 4) | (b1 >> 4))],
            ));
            if group.len() > 1 {
                out.push(char::from(
                    ALPHABET[usize::from(((b1 & 0x0f) << 2) | (b2 >> 6))],
                ));
            } else {
                out.push('=');
            }
            if group.len() > 2 {
                out.push(char::from(ALPHABET[usize::from(b2 & 0x3f)]));
            } else {
                out.push('=');
            }
        }
        out
    }

    /// Java's `MathUtils.signSafeMod(long dividend, int divisor)`:
    /// `int m = (int) (dividend % divisor); if (m < 0) m += divisor;`.
    ///
    /// The arithmetic is done in `i128`, where nothing overflows, and only
    /// the final `int` addition is wrapped, since that is where Java wraps.
    /// `None` stands for Java's `ArithmeticException`.
    #[must_use]
    pub fn sign_safe_mod(dividend: i64, divisor: i32) -> Option<i32> {
        if divisor == 0 {
            return None;
        }
        // |m| < |divisor| <= 2^31, so the narrowing is exact, as in Java.
        let m = (i128::from(dividend) % i128::from(divisor)) as i32;
        Some(if m < 0 { m.wrapping_add(divisor) } else { m })
    }

    /// CRC-32/IEEE (zlib's `crc32`, Guava's `Hashing.crc32()`) one bit at a
    /// time: reflected polynomial `0xedb88320`, initial value and final XOR
    /// `0xffffffff`. No table, no SIMD, nothing shared with `crc32fast`.
    #[must_use]
    pub fn crc32(data: &[u8]) -> u32 {
        let mut crc: u32 = 0xffff_ffff;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                let lsb = crc & 1;
                crc >>= 1;
                if lsb == 1 {
                    crc ^= 0xedb8_8320;
                }
            }
        }
        crc ^ 0xffff_ffff
    }

    /// Java's `Character.isWhitespace(int)`: the Unicode space, line and
    /// paragraph separators except the three no-break spaces, plus
    /// `\t \n \u000B \f \r` and the information separators `\u001C`-`\u001F`.
    /// Listed out from the Javadoc, not from Rust's `char::is_whitespace`
    /// (which differs on U+0085, U+00A0, U+2007, U+202F and U+001C-U+001F).
    #[must_use]
    pub fn java_is_whitespace(c: char) -> bool {
        // Zs without the "non-breaking" U+00A0, U+2007 and U+202F; then Zl
        // and Zp.
        const SEPARATORS: &[char] = &[
            ' ', '\u{1680}', '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}',
            '\u{2005}', '\u{2006}', '\u{2008}', '\u{2009}', '\u{200a}', '\u{205f}', '\u{3000}',
            '\u{2028}', '\u{2029}',
        ];
        matches!(
            c,
            '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | '\u{1c}' | '\u{1d}' | '\u{1e}' | '\u{1f}'
        ) || SEPARATORS.contains(&c)
    }

    /// Commons Lang `StringUtils.isBlank`: empty or only Java whitespace.
    #[must_use]
    pub fn java_is_blank(s: &str) -> bool {
        s.chars().all(java_is_whitespace)
    }

    /// `NamedEntity.checkName`'s pattern `^[-=:.\w]*$`, `\w` being ASCII
    /// letters, digits and `_`.
    #[must_use]
    pub fn is_named_entity(s: &str) -> bool {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-=:._".contains(c))
    }

    /// `URLEncoder.encode(s, UTF_8)`: `A-Z a-z 0-9 . - * _` kept, a space
    /// as `+`, every other byte of the UTF-8 form as `%XX`, upper-case hex.
    #[must_use]
    pub fn url_encode(s: &str) -> String {
        let mut out = String::new();
        for &byte in s.as_bytes() {
            if byte.is_ascii_alphanumeric() || b".-*_".contains(&byte) {
                out.push(char::from(byte));
            } else if byte == b' ' {
                out.push('+');
            } else {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
        out
    }

    /// Java's `String.split(String.valueOf(sep))` for a separator that is
    /// no regex metacharacter: every part, then trailing empty parts
    /// dropped (so `"a_"` is `["a"]` and `"__"` is `[]`). Input without the
    /// separator is itself, even when empty.
    #[must_use]
    pub fn java_split(s: &str, sep: char) -> Vec<&str> {
        if !s.contains(sep) {
            return vec![s];
        }
        let mut parts: Vec<&str> = s.split(sep).collect();
        while parts.last() == Some(&"") {
            parts.pop();
        }
        parts
    }

    /// Why [`long_decode`] failed: the three `NumberFormatException`
    /// messages `Long.decode` can throw.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum DecodeError {
        /// "Zero length string".
        Empty,
        /// "Sign character in wrong position".
        SignInWrongPosition,
        /// Anything `Long.parseLong` rejects.
        NotALong,
    }

    /// `Long.decode(nm)` for ASCII text, transcribed from the JDK:
    ///
    /// ```java
    /// if (nm.isEmpty()) throw new NumberFormatException("Zero length string");
    /// char firstChar = nm.charAt(0);
    /// if (firstChar == '-') { negative = true; index++; }
    /// else if (firstChar == '+') index++;
    /// if (nm.startsWith("0x", index) || nm.startsWith("0X", index)) { index += 2; radix = 16; }
    /// else if (nm.startsWith("#", index)) { index++; radix = 16; }
    /// else if (nm.startsWith("0", index) && nm.length() > 1 + index) { index++; radix = 8; }
    /// if (nm.startsWith("-", index) || nm.startsWith("+", index))
    ///     throw new NumberFormatException("Sign character in wrong position");
    /// // parseLong(nm.substring(index), radix), negated; on failure
    /// // parseLong("-" + nm.substring(index), radix), for Long.MIN_VALUE.
    /// ```
    ///
    /// The digits are accumulated in `i128` and range-checked once, which
    /// gives the same answers as the JDK's retry without its trick.
    ///
    /// # Panics
    /// On non-ASCII input, where Java's Unicode digits would need a table.
    pub fn long_decode(nm: &str) -> Result<i64, DecodeError> {
        assert!(nm.is_ascii(), "the reference decodes ASCII only");
        if nm.is_empty() {
            return Err(DecodeError::Empty);
        }
        let bytes = nm.as_bytes();
        let mut index = 0;
        let mut negative = false;
        if bytes[0] == b'-' {
            negative = true;
            index += 1;
        } else if bytes[0] == b'+' {
            index += 1;
        }
        let rest = &nm[index..];
        let radix;
        if rest.starts_with("0x") || rest.starts_with("0X") {
            index += 2;
            radix = 16;
        } else if rest.starts_with('#') {
            index += 1;
            radix = 16;
        } else if rest.starts_with('0') && nm.len() > 1 + index {
            index += 1;
            radix = 8;
        } else {
            radix = 10;
        }
        let digits = &nm[index..];
        if digits.starts_with('-') || digits.starts_with('+') {
            return Err(DecodeError::SignInWrongPosition);
        }
        if digits.is_empty() {
            return Err(DecodeError::NotALong);
        }
        let mut value: i128 = 0;
        for c in digits.chars() {
            let digit = c.to_digit(radix).ok_or(DecodeError::NotALong)?;
            value = value * i128::from(radix) + i128::from(digit);
            if value > 1 << 64 {
                // Far out of range already; stop before i128 overflows.
                return Err(DecodeError::NotALong);
            }
        }
        if negative {
            value = -value;
        }
        i64::try_from(value).map_err(|_| DecodeError::NotALong)
    }

    /// `getPartitionIndex(topic)` for ASCII text: the text after the last
    /// `-partition-`, if `Integer.parseInt` reads it as a non-negative
    /// number that prints back with the same length, else -1.
    ///
    /// # Panics
    /// On non-ASCII input.
    #[must_use]
    pub fn partition_index(topic: &str) -> i32 {
        assert!(topic.is_ascii(), "the reference reads ASCII only");
        let Some(at) = topic.rfind("-partition-") else {
            return -1;
        };
        let suffix = &topic[at + "-partition-".len()..];
        // `Integer.parseInt`: an optional sign, then at least one digit.
        let digits = suffix.strip_prefix(['+', '-']).unwrap_or(suffix);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return -1;
        }
        let Ok(value) = suffix.parse::<i32>() else {
            return -1;
        };
        if value < 0 || suffix.len() != value.to_string().len() {
            return -1;
        }
        value
    }

    /// `0xffffffff`: the top of the bundle hash space.
    pub const FULL_UPPER_BOUND: i64 = 0xffff_ffff;

    /// Whether the `NamespaceBundles` constructor accepts `partitions`:
    /// at least two, and each consecutive pair a `NamespaceBundle` range,
    /// `[lower, upper)` for every pair but the last, `[lower, upper]` for
    /// the last; a range must have `lower <= upper` (Guava), must not be
    /// empty, and may be closed only at `0xffffffff`, open only below it.
    #[must_use]
    pub fn namespace_bundles_accept(partitions: &[i64]) -> bool {
        if partitions.len() < 2 {
            return false;
        }
        let last = partitions.len() - 2;
        partitions.windows(2).enumerate().all(|(i, pair)| {
            let (lower, upper) = (pair[0], pair[1]);
            let closed = i == last;
            let nonempty = lower < upper || (closed && lower == upper);
            // `Invalid hash range. Upper Endpoint should be exclusive
            // unless it is 0xffffffff`, read both ways as the core does.
            let upper_ok = closed == (upper == FULL_UPPER_BOUND);
            lower <= upper && nonempty && upper_ok
        })
    }

    /// Java's `Arrays.binarySearch(long[] a, long key)`: the index of a
    /// match, or `-(insertion point) - 1`.
    #[must_use]
    pub fn java_binary_search(a: &[i64], key: i64) -> i64 {
        let (mut low, mut high) = (0i64, a.len() as i64 - 1);
        while low <= high {
            let mid = ((low + high) as u64 >> 1) as i64;
            let mid_val = a[mid as usize];
            if mid_val < key {
                low = mid + 1;
            } else if mid_val > key {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        -(low + 1)
    }

    /// `NamespaceBundles.getBundle(hash)`: the index of the bundle Java
    /// returns, or `None` where `bundles.get(lowerIdx)` throws.
    ///
    /// ```java
    /// int idx = Arrays.binarySearch(partitions, hash);
    /// int lowerIdx = idx < 0 ? -(idx + 2) : idx;
    /// return bundles.get(lowerIdx);
    /// ```
    #[must_use]
    pub fn java_get_bundle_index(partitions: &[i64], hash: i64) -> Option<usize> {
        let idx = java_binary_search(partitions, hash);
        let lower_idx = if idx < 0 { -(idx + 2) } else { idx };
        usize::try_from(lower_idx)
            .ok()
            .filter(|&i| i < partitions.len() - 1)
    }

    /// `NamespaceBundles.validateBundle(bundle)`: the bundle's index, or
    /// `None` where Java's `checkArgument`s throw.
    ///
    /// ```java
    /// int idx = Arrays.binarySearch(partitions, nsBundle.getLowerEndpoint());
    /// checkArgument(idx >= 0, "Cannot find bundle in the bundles list");
    /// checkArgument(nsBundle.getUpperEndpoint().equals(bundles.get(idx).getUpperEndpoint()), ...);
    /// ```
    #[must_use]
    pub fn java_validate_bundle(partitions: &[i64], (lower, upper): (i64, i64)) -> Option<usize> {
        let idx = usize::try_from(java_binary_search(partitions, lower)).ok()?;
        // `bundles.get(idx)` throws for the last boundary's index.
        let bundle_upper = *partitions.get(idx + 1)?;
        (bundle_upper == upper).then_some(idx)
    }

    /// Why [`split_bundles`] failed.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SplitError {
        /// `checkArgument(canSplitBundle(targetBundle))`.
        CannotSplitFurther,
        /// `checkArgument(first > lower && last < upper)` on the boundaries.
        OutsideBundle,
        /// `(maxVal - minVal) / numBundles` with zero bundles.
        DivideByZero,
        /// The target is no bundle of the layout: Java returns `null`.
        NotFound,
    }

    /// `NamespaceBundleFactory.splitBundles(target, argNumBundles,
    /// splitBoundaries)`, transcribed; the result is the new `partitions`
    /// array, which the caller then hands to the `NamespaceBundles`
    /// constructor. `canSplitBundle` wraps `upper - lower` like the JDK's
    /// `long` for ranges wider than `Long.MAX_VALUE`.
    ///
    /// ```java
    /// checkArgument(canSplitBundle(targetBundle), ...);
    /// if (splitBoundaries != null && splitBoundaries.size() > 0) {
    ///     Collections.sort(splitBoundaries);
    ///     checkArgument(splitBoundaries.get(0) > targetBundle.getLowerEndpoint()
    ///             && splitBoundaries.get(splitBoundaries.size() - 1) < targetBundle.getUpperEndpoint(), ...);
    ///     argNumBundles = splitBoundaries.size() + 1;
    /// }
    /// ...
    /// for (int i = 0; i < lastIndex; i++) {
    ///     if (sourceBundle.partitions[i] == range.lowerEndpoint()
    ///             && (range.upperEndpoint() == sourceBundle.partitions[i + 1])) {
    ///         splitPartition = i;
    ///         long maxVal = sourceBundle.partitions[i + 1];
    ///         long minVal = sourceBundle.partitions[i];
    ///         long segSize = splitBoundaries == null || splitBoundaries.isEmpty()
    ///                 ? (maxVal - minVal) / numBundles : 0;
    ///         partitions[pos++] = minVal;
    ///         long curPartition = minVal + segSize;
    ///         for (int j = 0; j < numBundles - 1; j++) {
    ///             if (splitBoundaries != null && !splitBoundaries.isEmpty()) {
    ///                 curPartition = splitBoundaries.get(j);
    ///             }
    ///             partitions[pos++] = curPartition;
    ///             curPartition += segSize;
    ///         }
    ///     } else {
    ///         partitions[pos++] = sourceBundle.partitions[i];
    ///     }
    /// }
    /// partitions[pos] = sourceBundle.partitions[lastIndex];
    /// if (splitPartition != -1) { return new NamespaceBundles(..., partitions) ... }
    /// return null;
    /// ```
    ///
    /// # Errors
    /// As listed in [`SplitError`].
    pub fn split_bundles(
        source: &[i64],
        (lower, upper): (i64, i64),
        num_bundles: u32,
        split_boundaries: &[i64],
    ) -> Result<Vec<i64>, SplitError> {
        // `canSplitBundle`: `upper - lower > 1` in Java's wrapping `long`.
        if upper.wrapping_sub(lower) <= 1 {
            return Err(SplitError::CannotSplitFurther);
        }
        let mut boundaries = split_boundaries.to_vec();
        let mut num_bundles = i64::from(num_bundles);
        if !boundaries.is_empty() {
            boundaries.sort_unstable();
            if !(boundaries[0] > lower && boundaries[boundaries.len() - 1] < upper) {
                return Err(SplitError::OutsideBundle);
            }
            num_bundles = boundaries.len() as i64 + 1;
        }
        let last_index = source.len() - 1;
        let mut partitions = Vec::new();
        let mut found = false;
        for i in 0..last_index {
            if source[i] == lower && upper == source[i + 1] {
                found = true;
                let (min_val, max_val) = (source[i], source[i + 1]);
                let seg_size = if boundaries.is_empty() {
                    if num_bundles == 0 {
                        return Err(SplitError::DivideByZero);
                    }
                    (max_val - min_val) / num_bundles
                } else {
                    0
                };
                partitions.push(min_val);
                let mut cur = min_val + seg_size;
                for j in 0..(num_bundles - 1).max(0) as usize {
                    if !boundaries.is_empty() {
                        cur = boundaries[j];
                    }
                    partitions.push(cur);
                    cur += seg_size;
                }
            } else {
                partitions.push(source[i]);
            }
        }
        partitions.push(source[last_index]);
        if found {
            Ok(partitions)
        } else {
            Err(SplitError::NotFound)
        }
    }

    /// `TopicCountEquallyDivideBundleSplitAlgorithm`: `None` for at most
    /// one topic, else
    ///
    /// ```java
    /// Collections.sort(topicNameHashList);
    /// long splitStart = topicNameHashList.get(Math.max((topicNameHashList.size() / 2) - 1, 0));
    /// long splitEnd = topicNameHashList.get(topicNameHashList.size() / 2);
    /// long splitMiddle = splitStart + (splitEnd - splitStart) / 2;
    /// ```
    #[must_use]
    pub fn topic_count_divide(hashes: &[u32]) -> Option<i64> {
        if hashes.len() <= 1 {
            return None;
        }
        let mut sorted: Vec<i64> = hashes.iter().map(|&h| i64::from(h)).collect();
        sorted.sort_unstable();
        let start = sorted[(sorted.len() / 2).saturating_sub(1)];
        let end = sorted[sorted.len() / 2];
        Some(start + (end - start) / 2)
    }

    /// One topic's stats, as `FlowOrQpsEquallyDivideBundleSplitAlgorithm`
    /// reads them: hash, `msgRateIn`, `msgRateOut`, `msgThroughputIn`,
    /// `msgThroughputOut`.
    pub type TopicStats = (u32, f64, f64, f64, f64);

    /// `FlowOrQpsEquallyDivideBundleSplitAlgorithm.getSplitBoundary`,
    /// transcribed from the broker's current source (`topics` being
    /// `owned_topics` many, of which `stats` have stats, in order):
    ///
    /// ```java
    /// if (topics == null || topics.size() <= 1) return null;
    /// for (String topic : topics) {
    ///     ... msgRate = msgRateIn + msgRateOut; throughput = msgThroughputIn + msgThroughputOut;
    ///     if (msgRate <= 0 && throughput <= 0) continue;
    ///     topicHashList.add(hashCode);
    ///     topicInfoMap.put(hashCode, new TopicInfo(topic, msgRate, throughput));
    ///     bundleThroughput += throughput; bundleMsgRate += msgRate;
    /// }
    /// if (topicInfoMap.size() < 2
    ///         || (bundleMsgRate < (maxMsgRate * (1 + diffThreshold))
    ///         && bundleThroughput < (maxBandwidthBytes * (1 + diffThreshold)))) return null;
    /// Collections.sort(topicHashList);
    /// double bundleMsgRateTmp = topicInfoMap.get(topicHashList.get(0)).msgRate;
    /// double bundleThroughputTmp = topicInfoMap.get(topicHashList.get(0)).throughput;
    /// for (int i = 1; i < topicHashList.size(); i++) {
    ///     ... msgRate, throughput of topicInfoMap.get(topicHashList.get(i))
    ///     if (bundleMsgRateTmp > maxMsgRate || bundleThroughputTmp > maxBandwidthBytes
    ///             || (bundleMsgRateTmp + msgRate) > maxMsgRate
    ///             || (bundleThroughputTmp + throughput) > maxBandwidthBytes) {
    ///         long splitStart = topicHashList.get(i-1); long splitEnd = topicHashList.get(i);
    ///         splitResults.add(splitStart + (splitEnd - splitStart) / 2 + 1);
    ///         bundleMsgRateTmp = msgRate; bundleThroughputTmp = throughput;
    ///     } else { bundleMsgRateTmp += msgRate; bundleThroughputTmp += throughput; }
    /// }
    /// ```
    #[must_use]
    pub fn flow_or_qps_divide(
        owned_topics: usize,
        stats: &[TopicStats],
        max_msg_rate: i32,
        max_bandwidth_mbytes: i32,
        threshold_percent: i32,
    ) -> Option<Vec<i64>> {
        const MBYTES: i64 = 1024 * 1024;
        if owned_topics <= 1 {
            return None;
        }
        let diff_threshold = f64::from(threshold_percent) / 100.0;
        let max_bandwidth_bytes = i64::from(max_bandwidth_mbytes) * MBYTES;
        let max_rate = f64::from(max_msg_rate);
        let max_bandwidth = max_bandwidth_bytes as f64;
        let mut bundle_throughput = 0.0;
        let mut bundle_msg_rate = 0.0;
        let mut info = std::collections::HashMap::new();
        let mut hash_list = Vec::new();
        for &(hash, rate_in, rate_out, tput_in, tput_out) in stats {
            let msg_rate = rate_in + rate_out;
            let throughput = tput_in + tput_out;
            if msg_rate <= 0.0 && throughput <= 0.0 {
                continue;
            }
            hash_list.push(i64::from(hash));
            info.insert(i64::from(hash), (msg_rate, throughput));
            bundle_throughput += throughput;
            bundle_msg_rate += msg_rate;
        }
        if info.len() < 2
            || (bundle_msg_rate < max_rate * (1.0 + diff_threshold)
                && bundle_throughput < max_bandwidth * (1.0 + diff_threshold))
        {
            return None;
        }
        hash_list.sort_unstable();
        let mut results = Vec::new();
        let (mut rate_tmp, mut tput_tmp) = info[&hash_list[0]];
        for i in 1..hash_list.len() {
            let (msg_rate, throughput) = info[&hash_list[i]];
            if rate_tmp > max_rate
                || tput_tmp > max_bandwidth
                || (rate_tmp + msg_rate) > max_rate
                || (tput_tmp + throughput) > max_bandwidth
            {
                let (start, end) = (hash_list[i - 1], hash_list[i]);
                results.push(start + (end - start) / 2 + 1);
                rate_tmp = msg_rate;
                tput_tmp = throughput;
            } else {
                rate_tmp += msg_rate;
                tput_tmp += throughput;
            }
        }
        Some(results)
    }

    /// The mathematical floor modulo, `x mod n` in `[0, n)`, for `n > 0`.
    #[must_use]
    pub fn floor_mod(x: i128, n: u32) -> u32 {
        // In [0, n), so it fits in u32.
        x.rem_euclid(i128::from(n)) as u32
    }
}

pub mod models {
    //! Obviously correct, slow models of the Key_Shared selectors and of
    //! the client-side checks, written from the broker's and the Java
    //! client's definitions with ordered maps and vectors. The targets
    //! drive the core and a model with the same operations and compare.

    use std::collections::BTreeMap;

    use crate::reference::murmur3_32_raw;

    /// `(start, end, consumer)`, inclusive, sorted, maximal runs.
    pub type Runs = Vec<(i64, i64, u64)>;
    /// Per consumer, its merged ranges in order.
    pub type ByConsumer = BTreeMap<u64, Vec<(i64, i64)>>;

    /// The maximal runs of `owner` over `[lo, hi]`, given every slot where
    /// ownership may change (`ends`: each a last slot of a constant piece).
    pub fn runs(lo: i64, hi: i64, ends: &[i64], owner: impl Fn(i64) -> Option<u64>) -> Runs {
        let mut cuts: Vec<i64> = ends
            .iter()
            .copied()
            .filter(|&e| e >= lo && e < hi)
            .collect();
        cuts.push(hi);
        cuts.sort_unstable();
        cuts.dedup();
        let mut out: Runs = Vec::new();
        let mut start = lo;
        for end in cuts {
            if let Some(c) = owner(end) {
                match out.last_mut() {
                    Some(last) if last.2 == c && last.1 + 1 == start => last.1 = end,
                    _ => out.push((start, end, c)),
                }
            }
            start = end + 1;
        }
        out
    }

    /// Per-consumer ranges of a snapshot, adjacent ones merged.
    #[must_use]
    pub fn by_consumer(runs: &Runs) -> ByConsumer {
        let mut out = ByConsumer::new();
        for &(s, e, c) in runs {
            let list = out.entry(c).or_default();
            match list.last_mut() {
                Some(last) if last.1 + 1 == s => last.1 = e,
                _ => list.push((s, e)),
            }
        }
        out
    }

    /// The owner of `slot` in a snapshot.
    #[must_use]
    pub fn owner_in(runs: &Runs, slot: i64) -> Option<u64> {
        runs.iter()
            .find(|&&(s, e, _)| s <= slot && slot <= e)
            .map(|r| r.2)
    }

    /// What an add or remove moved, slot by slot: the slots each consumer
    /// owned before and not after (removed), and after and not before
    /// (added), merged into ranges.
    #[must_use]
    pub fn diff(before: &Runs, after: &Runs) -> (ByConsumer, ByConsumer) {
        let mut ends: Vec<i64> = before.iter().chain(after).map(|r| r.1).collect();
        ends.extend(before.iter().chain(after).map(|r| r.0 - 1));
        ends.sort_unstable();
        ends.dedup();
        let (lo, hi) = match (
            before.iter().chain(after).map(|r| r.0).min(),
            before.iter().chain(after).map(|r| r.1).max(),
        ) {
            (Some(lo), Some(hi)) => (lo, hi),
            _ => return (ByConsumer::new(), ByConsumer::new()),
        };
        let lost = runs(lo, hi, &ends, |s| {
            let (b, a) = (owner_in(before, s), owner_in(after, s));
            b.filter(|&b| Some(b) != a)
        });
        let gained = runs(lo, hi, &ends, |s| {
            let (b, a) = (owner_in(before, s), owner_in(after, s));
            a.filter(|&a| Some(a) != b)
        });
        (by_consumer(&lost), by_consumer(&gained))
    }

    /// `HashRangeAutoSplitStickyKeyConsumerSelector`: a map from each
    /// range's upper bound to its consumer.
    #[derive(Clone, Debug, Default)]
    pub struct AutoSplitModel {
        /// The range size (the top key).
        pub size: u32,
        /// Upper bound to consumer.
        pub map: BTreeMap<u32, u64>,
    }

    impl AutoSplitModel {
        /// An empty selector.
        #[must_use]
        pub fn new(size: u32) -> Self {
            Self {
                size,
                map: BTreeMap::new(),
            }
        }

        /// Whether `c` is assigned.
        #[must_use]
        pub fn contains(&self, c: u64) -> bool {
            self.map.values().any(|&x| x == c)
        }

        fn lower_key(&self, k: u32) -> u32 {
            self.map.range(..k).next_back().map_or(0, |(&l, _)| l)
        }

        /// `addConsumer`: `false` where Java throws "No more range" (the
        /// biggest range is at most one slot wide), changing nothing.
        pub fn add(&mut self, c: u64) -> bool {
            if self.map.is_empty() {
                self.map.insert(self.size, c);
                return true;
            }
            // findBiggestRange: the first key with the largest `key - lowerKey`.
            let mut slots = 0;
            let mut busiest = self.size;
            for &k in self.map.keys() {
                let width = k - self.lower_key(k);
                if width > slots {
                    slots = width;
                    busiest = k;
                }
            }
            let lower = self.lower_key(busiest);
            if busiest - lower <= 1 {
                return false;
            }
            self.map.insert(busiest - ((busiest - lower) >> 1), c);
            true
        }

        /// `removeConsumer`: the top range passes to the consumer below it.
        pub fn remove(&mut self, c: u64) {
            let Some(k) = self.map.iter().find(|e| *e.1 == c).map(|e| *e.0) else {
                return;
            };
            if k == self.size && self.map.len() > 1 {
                let (&lk, &lc) = self.map.range(..k).next_back().expect("a lower entry");
                self.map.remove(&lk);
                self.map.insert(k, lc);
            } else {
                self.map.remove(&k);
            }
        }

        /// `select(slot)`: the ceiling entry.
        #[must_use]
        pub fn select(&self, slot: u32) -> Option<u64> {
            self.map.range(slot..).next().map(|(_, &c)| c)
        }

        /// The snapshot: `[0, k0]`, `[k0 + 1, k1]`, ...
        #[must_use]
        pub fn snapshot(&self) -> Runs {
            let mut prev = -1i64;
            self.map
                .iter()
                .map(|(&k, &c)| {
                    let run = (prev + 1, i64::from(k), c);
                    prev = i64::from(k);
                    run
                })
                .collect()
        }
    }

    /// `ConsistentHashingStickyKeyConsumerSelector`: a ring from point to
    /// the queue of consumers holding it, oldest first.
    #[derive(Clone, Debug, Default)]
    pub struct ConsistentModel {
        /// Points per consumer.
        pub points: u32,
        /// The top slot; slots are `[1, max]`.
        pub max: u32,
        /// Point to holders, oldest first.
        pub ring: BTreeMap<u32, Vec<u64>>,
        /// Live consumers in arrival order: id, name, name index.
        pub consumers: Vec<(u64, Vec<u8>, u32)>,
    }

    impl ConsistentModel {
        /// An empty selector.
        #[must_use]
        pub fn new(points: u32, max: u32) -> Self {
            Self {
                points,
                max,
                ..Self::default()
            }
        }

        /// Whether `c` is live.
        #[must_use]
        pub fn contains(&self, c: u64) -> bool {
            self.consumers.iter().any(|x| x.0 == c)
        }

        /// `makeStickyKeyHash(name + "\0" + index + "\0" + i)` in `[1, max]`.
        #[must_use]
        pub fn point(&self, name: &[u8], index: u32, i: u32) -> u32 {
            let mut key = name.to_vec();
            key.extend_from_slice(format!("\0{index}\0{i}").as_bytes());
            let hash = murmur3_32_raw(&key) & 0x7fff_ffff;
            (hash % self.max + 1).max(1)
        }

        /// Adds `c`: the smallest name index no live namesake uses, then
        /// one queue entry per point.
        pub fn add(&mut self, c: u64, name: &[u8]) {
            let index = (0..)
                .find(|k| !self.consumers.iter().any(|x| x.1 == name && x.2 == *k))
                .expect("a free index");
            for i in 0..self.points {
                let p = self.point(name, index, i);
                self.ring.entry(p).or_default().push(c);
            }
            self.consumers.push((c, name.to_vec(), index));
        }

        /// Removes `c` from every queue; emptied points leave the ring.
        pub fn remove(&mut self, c: u64) {
            self.consumers.retain(|x| x.0 != c);
            self.ring.retain(|_, queue| {
                queue.retain(|&x| x != c);
                !queue.is_empty()
            });
        }

        /// The first point at or after `slot`, wrapping; its oldest holder.
        #[must_use]
        pub fn select(&self, slot: u32) -> Option<u64> {
            self.ring
                .range(slot..)
                .next()
                .or_else(|| self.ring.iter().next())
                .map(|(_, q)| q[0])
        }

        /// The snapshot over `[1, max]`.
        #[must_use]
        pub fn snapshot(&self) -> Runs {
            let ends: Vec<i64> = self.ring.keys().map(|&p| i64::from(p)).collect();
            runs(1, i64::from(self.max), &ends, |s| {
                self.select(u32::try_from(s).expect("a slot"))
            })
        }
    }

    /// The Java client's `KeySharedPolicySticky.validate()` after each
    /// `Range.of(start, end)`: which check throws first.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum StickyCheck {
        /// `Range.of`: end before start.
        EndBeforeStart,
        /// No range.
        Empty,
        /// The `i`-th range is outside `[0, 65535]`.
        OutOfBounds(usize),
        /// The `i`-th range overlaps the `j`-th.
        Overlap(usize, usize),
    }

    /// The checks, in Java's order.
    ///
    /// # Errors
    /// The first failing check.
    pub fn java_validate_sticky(ranges: &[(i32, i32)]) -> Result<(), StickyCheck> {
        if ranges.iter().any(|&(s, e)| e < s) {
            return Err(StickyCheck::EndBeforeStart);
        }
        if ranges.is_empty() {
            return Err(StickyCheck::Empty);
        }
        for (i, &(s1, e1)) in ranges.iter().enumerate() {
            if s1 < 0 || e1 >= 65536 {
                return Err(StickyCheck::OutOfBounds(i));
            }
            for (j, &(s2, e2)) in ranges.iter().enumerate() {
                // Range.intersect: max(starts) <= min(ends).
                if i != j && s1.max(s2) <= e1.min(e2) {
                    return Err(StickyCheck::Overlap(i, j));
                }
            }
        }
        Ok(())
    }

    /// Kafka's `Utils.murmur2`, transcribed.
    #[must_use]
    pub fn kafka_murmur2(data: &[u8]) -> u32 {
        let length = data.len();
        let m: u32 = 0x5bd1_e995;
        let r = 24;
        let mut h: u32 = 0x9747_b28c ^ (length as u32);
        for i in 0..length / 4 {
            let i4 = i * 4;
            let mut k = u32::from(data[i4])
                .wrapping_add(u32::from(data[i4 + 1]) << 8)
                .wrapping_add(u32::from(data[i4 + 2]) << 16)
                .wrapping_add(u32::from(data[i4 + 3]) << 24);
            k = k.wrapping_mul(m);
            k ^= k >> r;
            k = k.wrapping_mul(m);
            h = h.wrapping_mul(m);
            h ^= k;
        }
        let tail = length & !3;
        let rest = length % 4;
        if rest >= 3 {
            h ^= u32::from(data[tail + 2]) << 16;
        }
        if rest >= 2 {
            h ^= u32::from(data[tail + 1]) << 8;
        }
        if rest >= 1 {
            h ^= u32::from(data[tail]);
            h = h.wrapping_mul(m);
        }
        h ^= h >> 13;
        h = h.wrapping_mul(m);
        h ^= h >> 15;
        h
    }
}

#[cfg(test)]
mod tests {
    use super::{models, reference};

    #[test]
    fn consistent_model_points() {
        // The core's documented `ring_point(b"c1", 0, 0, [1, 65535])`.
        assert_eq!(
            models::ConsistentModel::new(1, 65535).point(b"c1", 0, 0),
            34662
        );
    }

    #[test]
    fn auto_split_model_halves() {
        let mut m = models::AutoSplitModel::new(8);
        assert!(m.add(1));
        assert!(m.add(2));
        assert_eq!(m.snapshot(), [(0, 4, 2), (5, 8, 1)]);
        m.remove(1);
        assert_eq!(m.snapshot(), [(0, 8, 2)]);
    }

    #[test]
    fn diff_is_slotwise() {
        let (lost, gained) = models::diff(&vec![(0, 9, 1)], &vec![(0, 4, 2), (5, 9, 1)]);
        assert_eq!(lost.into_iter().collect::<Vec<_>>(), [(1, vec![(0, 4)])]);
        assert_eq!(gained.into_iter().collect::<Vec<_>>(), [(2, vec![(0, 4)])]);
    }

    #[test]
    fn murmur3_known_values() {
        // Values from the Java client and from the core's documentation.
        assert_eq!(reference::murmur3_32_raw(b""), 0);
        assert_eq!(reference::murmur3_32_raw(b"k1") as i32, -37_330_902);
        assert_eq!(
            reference::murmur3_32_raw(b"hello") & 0x7fff_ffff,
            613_153_351
        );
        for len in 0..=9 {
            let data: Vec<u8> = (0..len).map(|i| 0xf0 ^ i).collect();
            assert_eq!(
                reference::murmur3_32_raw(&data),
                murmur3::murmur3_32(&mut std::io::Cursor::new(&data), 0).unwrap()
            );
        }
    }

    #[test]
    fn java_hashcode_known_values() {
        assert_eq!(reference::java_string_hashcode(""), 0);
        assert_eq!(reference::java_string_hashcode("a"), 97);
        assert_eq!(
            reference::java_string_hashcode("polygenelubricants"),
            i32::MIN
        );
        assert_eq!(reference::java_string_hashcode("😀") & i32::MAX, 1_772_899);
    }

    #[test]
    fn base64_rfc4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, encoded) in vectors {
            assert_eq!(reference::base64(input.as_bytes()), encoded);
        }
        assert_eq!(reference::base64(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn crc32_check_value() {
        // The CRC catalogue's check value for CRC-32/ISO-HDLC.
        assert_eq!(reference::crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(reference::crc32(b""), 0);
        assert_eq!(
            reference::crc32(b"persistent://public/default/my-topic"),
            732_775_927
        );
    }

    #[test]
    fn java_text_helpers() {
        assert!(reference::java_is_blank(" \t\u{1f}\u{3000}"));
        assert!(!reference::java_is_blank("\u{a0}"));
        assert!(!reference::java_is_blank("\u{2007}"));
        assert!(!reference::java_is_blank("\u{85}"));
        assert!(reference::is_named_entity("a-b=c:d.e_F9"));
        assert!(!reference::is_named_entity("a b"));
        assert!(!reference::is_named_entity("é"));
        assert_eq!(reference::url_encode("a b/é~*"), "a+b%2F%C3%A9%7E*");
        assert_eq!(reference::java_split("a_b_", '_'), ["a", "b"]);
        assert_eq!(reference::java_split("_b", '_'), ["", "b"]);
        assert!(reference::java_split("__", '_').is_empty());
        assert_eq!(reference::java_split("", '_'), [""]);
    }

    #[test]
    fn long_decode_java_values() {
        use reference::DecodeError::*;
        assert_eq!(reference::long_decode("0x10"), Ok(16));
        assert_eq!(reference::long_decode("#10"), Ok(16));
        assert_eq!(reference::long_decode("010"), Ok(8));
        assert_eq!(reference::long_decode("0"), Ok(0));
        assert_eq!(reference::long_decode("-0"), Ok(0));
        assert_eq!(reference::long_decode("-0X8000000000000000"), Ok(i64::MIN));
        assert_eq!(reference::long_decode("0x8000000000000000"), Err(NotALong));
        assert_eq!(reference::long_decode(""), Err(Empty));
        assert_eq!(reference::long_decode("0x-1"), Err(SignInWrongPosition));
        assert_eq!(reference::long_decode("--1"), Err(SignInWrongPosition));
        assert_eq!(reference::long_decode("0x"), Err(NotALong));
        assert_eq!(reference::long_decode("-"), Err(NotALong));
        assert_eq!(reference::long_decode("08"), Err(NotALong));
    }

    #[test]
    fn partition_index_java_values() {
        assert_eq!(reference::partition_index("x-partition-7"), 7);
        assert_eq!(reference::partition_index("x-partition-1-partition-2"), 2);
        assert_eq!(reference::partition_index("x-partition-01"), -1);
        assert_eq!(reference::partition_index("x-partition-+1"), -1);
        assert_eq!(reference::partition_index("x-partition--0"), -1);
        assert_eq!(
            reference::partition_index("x-partition-2147483647"),
            i32::MAX
        );
        assert_eq!(reference::partition_index("x-partition-2147483648"), -1);
        assert_eq!(reference::partition_index("x"), -1);
    }

    #[test]
    fn split_bundles_java_values() {
        use reference::{FULL_UPPER_BOUND as MAX, SplitError};
        let two = [0, 0x8000_0000, MAX];
        assert!(reference::namespace_bundles_accept(&two));
        assert!(reference::namespace_bundles_accept(&[MAX, MAX]));
        assert!(!reference::namespace_bundles_accept(&[0, 5, 5, MAX]));
        assert!(!reference::namespace_bundles_accept(&[0, MAX, MAX]));
        assert!(!reference::namespace_bundles_accept(&[0, 5]));
        assert_eq!(
            reference::split_bundles(&two, (0, 0x8000_0000), 2, &[]),
            Ok(vec![0, 0x4000_0000, 0x8000_0000, MAX])
        );
        assert_eq!(
            reference::split_bundles(&two, (0x8000_0000, MAX), 0, &[0x9000_0000, 0x8800_0000]),
            Ok(vec![0, 0x8000_0000, 0x8800_0000, 0x9000_0000, MAX])
        );
        assert_eq!(
            reference::split_bundles(&two, (0, 0x8000_0000), 2, &[0]),
            Err(SplitError::OutsideBundle)
        );
        assert_eq!(
            reference::split_bundles(&two, (0, 0x4000_0000), 2, &[]),
            Err(SplitError::NotFound)
        );
        assert_eq!(
            reference::split_bundles(&two, (0, 0x8000_0000), 0, &[]),
            Err(SplitError::DivideByZero)
        );
        assert_eq!(
            reference::split_bundles(&two, (5, 6), 2, &[]),
            Err(SplitError::CannotSplitFurther)
        );
    }

    #[test]
    fn split_algorithms_java_values() {
        assert_eq!(reference::topic_count_divide(&[7]), None);
        assert_eq!(reference::topic_count_divide(&[10, 2, 6, 4]), Some(5));
        assert_eq!(reference::topic_count_divide(&[9, 1, 5]), Some(3));
        // Two topics of 20000 msg/s each against a 30000 limit: one split,
        // halfway between their hashes, plus one.
        let stats = [
            (100, 20_000.0, 0.0, 0.0, 0.0),
            (200, 20_000.0, 0.0, 0.0, 0.0),
        ];
        assert_eq!(
            reference::flow_or_qps_divide(2, &stats, 30_000, 100, 10),
            Some(vec![151])
        );
        assert_eq!(
            reference::flow_or_qps_divide(1, &stats, 30_000, 100, 10),
            None
        );
        assert_eq!(
            reference::flow_or_qps_divide(2, &stats, 50_000, 100, 10),
            None
        );
    }

    #[test]
    fn sign_safe_mod_java_values() {
        assert_eq!(reference::sign_safe_mod(-7, 3), Some(2));
        assert_eq!(reference::sign_safe_mod(-1, -3), Some(-4));
        assert_eq!(reference::sign_safe_mod(i64::MIN, -1), Some(0));
        assert_eq!(reference::sign_safe_mod(5, 0), None);
        // Java's `m + divisor` overflows `int` here and wraps to 1.
        assert_eq!(
            reference::sign_safe_mod(-i64::from(i32::MAX), i32::MIN),
            Some(1)
        );
        assert_eq!(reference::floor_mod(-1, 12), 11);
    }
}
