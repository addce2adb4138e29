package dev.tidemark.pipelines.io.jdbc;

import java.math.BigDecimal;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A row's value as the text a database reads back into its column's type: a number as Java writes
 * it (a decimal without an exponent), true or false, a date-time in ISO-8601; null stays null. The
 * writer sends each column of a batch as one array of such texts ({@link SqlDialect#upsertPanes}).
 */
final class ColumnText {

  private ColumnText() {}

  static @Nullable String of(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    return value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString();
  }
}
