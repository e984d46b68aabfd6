package io.sam3stream.facade.reply;

import java.time.Duration;

/** What happens to replies, for metrics. */
public interface ReplyEvents {

    /** Why a reply was dropped instead of delivered. */
    enum DropReason {
        /** Its caller was already answered with 504 (or failed otherwise) before the reply arrived. */
        LATE,
        /** Nobody here ever waited for it: another instance's reply, a stale one, or no correlation id. */
        UNKNOWN
    }

    /** A reply reached its waiting caller {@code roundTrip} after the request was handed to the producer. */
    void delivered(Duration roundTrip);

    /** A reply was dropped. */
    void dropped(DropReason reason);
}
