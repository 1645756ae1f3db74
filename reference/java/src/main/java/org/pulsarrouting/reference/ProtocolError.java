package org.pulsarrouting.reference;

/** A request the protocol cannot read; answered with error_class "protocol", never a Java error. */
final class ProtocolError extends RuntimeException {
    ProtocolError(String message) {
        super(message, null, false, false);
    }
}
