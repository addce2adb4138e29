package dev.tidemark.transforms.io;

import java.util.Iterator;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Lines read with a limit on their length: a longer line comes as its first bytes, and {@link
 * #whyCut} says so, so that the line can be a dead letter that names it instead of a record held
 * whole in memory.
 */
public interface CutLines extends Iterator<String> {

  /** Why the line {@link #next} returned last is not whole; null when it is. */
  @Nullable String whyCut();
}
