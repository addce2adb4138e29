package dev.tidemark.sql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.lang3.StringUtils;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink SQL's string functions that Calcite has not, or has with another meaning: {@code
 * SPLIT_INDEX} and {@code REGEXP_EXTRACT} (Calcite's is BigQuery's, whose third argument is a
 * position). Each returns null where Flink's does: for a null argument, a negative or missing
 * index, or no match.
 */
public final class FlinkStringFunctions {

  /** Each regular expression compiled once: a query uses the same one for every row. */
  private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

  private FlinkStringFunctions() {}

  /**
   * {@code SPLIT_INDEX(text, separator, index)}: the {@code index}th part, from 0, of {@code text}
   * split at each {@code separator}, as Flink splits it (commons-lang's whole-separator split that
   * keeps empty parts).
   */
  public static @Nullable String splitIndex(
      @Nullable String text, @Nullable String separator, @Nullable Integer index) {
    if (text == null || separator == null || index == null || index < 0) {
      return null;
    }
    String[] parts = StringUtils.splitByWholeSeparatorPreserveAllTokens(text, separator);
    return index < parts.length ? parts[index] : null;
  }

  /** {@code REGEXP_EXTRACT(text, regex)}: the whole first match of {@code regex} in text. */
  public static @Nullable String regexpExtract(@Nullable String text, @Nullable String regex) {
    return regexpExtractGroup(text, regex, 0);
  }

  /**
   * {@code REGEXP_EXTRACT(text, regex, group)}: group {@code group} (0 for the whole) of the first
   * match of {@code regex} in {@code text}; null where there is no match or no such group.
   */
  public static @Nullable String regexpExtractGroup(
      @Nullable String text, @Nullable String regex, @Nullable Integer group) {
    if (text == null || regex == null || group == null || group < 0) {
      return null;
    }
    Matcher matcher = PATTERNS.computeIfAbsent(regex, Pattern::compile).matcher(text);
    if (!matcher.find() || group > matcher.groupCount()) {
      return null;
    }
    return matcher.group(group);
  }
}
