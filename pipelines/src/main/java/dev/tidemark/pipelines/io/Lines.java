package dev.tidemark.pipelines.io;

import java.io.Serializable;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How a sink makes a line of an element: its {@code text}, and its record {@code key} (null: none)
 * for a sink that keeps keys. A sink calls {@code text} once for each element it writes, so {@code
 * text} may count what is written, and calls {@code key} only if it keeps keys.
 *
 * @param <T> the elements written
 */
public record Lines<T>(
    SerializableFunction<T, String> text, SerializableFunction<T, @Nullable String> key)
    implements Serializable {}
