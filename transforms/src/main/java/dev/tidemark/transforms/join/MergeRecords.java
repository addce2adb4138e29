package dev.tidemark.transforms.join;

import java.io.Serializable;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Merges a left record with its match, or with none, into the joined record's text. */
@FunctionalInterface
public interface MergeRecords extends Serializable {

  /** {@code right} is null when no right record matched {@code left} in the window. */
  String merge(String left, @Nullable String right);
}
