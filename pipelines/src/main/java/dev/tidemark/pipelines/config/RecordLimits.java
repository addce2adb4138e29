package dev.tidemark.pipelines.config;

/** The limit on a record's length that every source applies, checked once. */
public final class RecordLimits {

  private RecordLimits() {}

  /**
   * {@code --maxRecordBytes}.
   *
   * @throws ConfigurationException if it is not a positive number of bytes
   */
  public static int maxRecordBytes(TidemarkOptions options) {
    Integer bytes = options.getMaxRecordBytes();
    if (bytes == null || bytes < 1) {
      throw new ConfigurationException(
          "--maxRecordBytes: " + bytes + " is not a length; use a number of bytes, e.g. 1048576");
    }
    return bytes;
  }
}
