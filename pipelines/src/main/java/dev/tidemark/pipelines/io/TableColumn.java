package dev.tidemark.pipelines.io;

import java.io.Serializable;
import java.util.regex.Pattern;

/**
 * One column of a table sink: its {@code name} in the table, the {@code field} of a JSON line (or
 * of its record key) that holds its value, and its {@code kind}. A value that is missing or JSON
 * {@code null} is SQL {@code NULL}.
 */
public record TableColumn(String name, String field, ColumnKind kind) implements Serializable {

  /** A name that every SQL database takes unquoted, and PostgreSQL keeps as it is. */
  private static final Pattern PLAIN_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  public TableColumn {
    if (!PLAIN_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a plain column name: " + name);
    }
  }

  /** The column {@code name} whose value is the JSON field of the same name. */
  public static TableColumn of(String name, ColumnKind kind) {
    return new TableColumn(name, name, kind);
  }

  /**
   * The column of JSON field {@code field}, named as a plain SQL name: lower case, a word break of
   * {@code camelCase} as {@code _}, any other character than a letter, digit or {@code _} as {@code
   * _} ({@code windowStart} is {@code window_start}, {@code orderId} is {@code order_id}).
   */
  public static TableColumn ofField(String field, ColumnKind kind) {
    String name =
        field
            .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
            .toLowerCase(java.util.Locale.ROOT)
            .replaceAll("[^a-z0-9_]", "_");
    if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
      name = "_" + name;
    }
    return new TableColumn(name.substring(0, Math.min(63, name.length())), field, kind);
  }
}
