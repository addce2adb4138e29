package dev.tidemark.transforms.io;

/**
 * The one rule for a record longer than its source's limit, shared by every source that cuts one (a
 * file's line, a Kafka value): how much of it a dead letter keeps, and how the reason reads.
 */
public final class RecordLimit {

  /** How much of a record longer than the limit is kept, for the dead letter that shows it. */
  public static final int KEPT_BYTES = 1024;

  private RecordLimit() {}

  /** How many of a cut record's bytes are kept under {@code limit}. */
  public static int keptBytes(int limit) {
    return Math.min(KEPT_BYTES, limit);
  }

  /**
   * Why a {@code what} ("line", "value") of {@code length} bytes is a dead letter under {@code
   * limit}.
   */
  public static String reason(String what, long length, int limit) {
    return "a "
        + what
        + " of "
        + length
        + " bytes, longer than the limit of "
        + limit
        + "; only its first "
        + keptBytes(limit)
        + " bytes are kept";
  }
}
