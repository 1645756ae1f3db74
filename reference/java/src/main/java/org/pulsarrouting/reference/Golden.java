package org.pulsarrouting.reference;

import java.nio.file.Path;

final class Golden {
    static void run(Ops ops, Path in, Path out) throws Exception {
        throw new UnsupportedOperationException("todo");
    }
}
