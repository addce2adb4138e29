package dev.tidemark.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.SqlNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A query's text and where in it each node of its parse tree is, by the line and column Calcite's
 * parser gives the node: so that a part of the query can be taken, or written anew, as the user
 * typed it.
 */
final class QueryText {

  private final String text;
  private final int[] lineStarts;

  QueryText(String text) {
    this.text = text;
    List<Integer> starts = new ArrayList<>(List.of(0));
    for (int at = 0; at < text.length(); at++) {
      if (text.charAt(at) == '\n') {
        starts.add(at + 1);
      }
    }
    this.lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The whole text. */
  String text() {
    return text;
  }

  /** The offset at which {@code node} begins. */
  int startOf(SqlNode node) {
    SqlParserPos at = node.getParserPosition();
    return lineStarts[at.getLineNum() - 1] + at.getColumnNum() - 1;
  }

  /** The offset just after {@code node}. */
  int endOf(SqlNode node) {
    SqlParserPos at = node.getParserPosition();
    return lineStarts[at.getEndLineNum() - 1] + at.getEndColumnNum();
  }

  /**
   * {@code to}, or past the parentheses that close those the text from {@code from} to {@code to}
   * opens: Calcite ends {@code x IN (SELECT ...)} before its last one.
   */
  private int closingParentheses(int from, int to) {
    int open = 0;
    boolean quoted = false;
    int at = from;
    for (; at < to || (open > 0 && at < text.length()); at++) {
      char c = text.charAt(at);
      if (c == '\'') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        open++;
      } else if (!quoted && c == ')') {
        open--;
      }
    }
    return Math.max(to, at);
  }

  /** The text of {@code node}, as the user wrote it. */
  String of(SqlNode node) {
    return text.substring(startOf(node), endOf(node));
  }

  /** The text from where {@code first} begins to where {@code last} ends. */
  String of(SqlNode first, SqlNode last) {
    return text.substring(startOf(first), endOf(last));
  }

  /**
   * The text with all but {@code node} written as blanks, its line breaks kept: {@code node} alone,
   * at the line and column it has in the whole text, so an error in it names the user's place.
   */
  String onlyOf(SqlNode node) {
    return onlyOf(node, node);
  }

  /**
   * The text with all but the part from where {@code first} begins to where {@code last} ends
   * written as blanks, as {@link #onlyOf(SqlNode)} writes it.
   */
  String onlyOf(SqlNode first, SqlNode last) {
    int from = startOf(first);
    int to = closingParentheses(from, endOf(last));
    StringBuilder blanked = new StringBuilder(text.length());
    for (int at = 0; at < text.length(); at++) {
      char c = text.charAt(at);
      blanked.append(at >= from && at < to || c == '\n' ? c : ' ');
    }
    return blanked.toString();
  }
}
