package dev.tidemark.pipelines.config;

import org.joda.time.Duration;

/**
 * How a source stamps and paces event time, from the command line: the out-of-orderness bound, the
 * idle timeout, how far ahead of the wall clock an event time may be, and where a Kafka source
 * starts ({@code earliest} or {@code latest}).
 */
public record EventTimeSettings(
    Duration maxOutOfOrderness, Duration idleTimeout, Duration maxFutureSkew, String startFrom) {}
