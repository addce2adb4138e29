package dev.tidemark.stack;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A query's rows much as {@code psql} prints them: a header, a rule, one line per row with each
 * column but the last as wide as its widest value, and the count of rows; a null is empty.
 */
final class ResultText {

  private ResultText() {}

  /** The text of every row of {@code rows}. */
  static String of(ResultSet rows) throws SQLException {
    ResultSetMetaData columns = rows.getMetaData();
    int count = columns.getColumnCount();
    List<String[]> lines = new ArrayList<>();
    String[] header = new String[count];
    for (int c = 0; c < count; c++) {
      header[c] = columns.getColumnLabel(c + 1);
    }
    lines.add(header);
    while (rows.next()) {
      String[] values = new String[count];
      for (int c = 0; c < count; c++) {
        String value = rows.getString(c + 1);
        values[c] = value == null ? "" : value;
      }
      lines.add(values);
    }
    int[] widths = new int[count];
    for (String[] line : lines) {
      for (int c = 0; c < count; c++) {
        widths[c] = Math.max(widths[c], line[c].length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (int l = 0; l < lines.size(); l++) {
      String[] line = lines.get(l);
      for (int c = 0; c < count; c++) {
        text.append(c == 0 ? " " : " | ")
            .append(c == count - 1 ? line[c] : pad(line[c], widths[c]));
      }
      text.append('\n');
      if (l == 0) {
        for (int c = 0; c < count; c++) {
          text.append(c == 0 ? "" : "+").append("-".repeat(widths[c] + 2));
        }
        text.append('\n');
      }
    }
    int rowCount = lines.size() - 1;
    return text.append('(').append(rowCount).append(rowCount == 1 ? " row)" : " rows)").toString();
  }

  private static String pad(String value, int width) {
    return value + " ".repeat(width - value.length());
  }
}
