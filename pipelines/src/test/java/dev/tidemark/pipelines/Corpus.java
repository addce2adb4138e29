package dev.tidemark.pipelines;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The corpus of Flink SQL queries in {@code flink-sql-corpus.sql}: each entry's name, whether
 * {@code sql} runs it or refuses it (and the word its refusal names), and its text; and the list of
 * them that {@code docs/sql-corpus.md} is.
 */
final class Corpus {

  private static final String RUNS = "-- runs: ";
  private static final String RUNS_ON_FLINK = "-- runs, on Flink too: ";
  private static final String REFUSED = "-- refused: ";

  /**
   * One query of the corpus: {@code onFlink} when it runs on Flink at parallelism 2 as well as on
   * the DirectRunner.
   */
  record Entry(String name, boolean runs, boolean onFlink, String construct, String query) {}

  private Corpus() {}

  static List<Entry> read() throws IOException {
    String text;
    try (InputStream in = Corpus.class.getResourceAsStream("/flink-sql-corpus.sql")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Entry> entries = new ArrayList<>();
    String[] lines = text.split("\n");
    for (int at = 0; at < lines.length; at++) {
      String line = lines[at];
      boolean onFlink = line.startsWith(RUNS_ON_FLINK);
      boolean runs = onFlink || line.startsWith(RUNS);
      if (!runs && !line.startsWith(REFUSED)) {
        continue;
      }
      String title =
          line.substring(
              onFlink ? RUNS_ON_FLINK.length() : runs ? RUNS.length() : REFUSED.length());
      String[] nameAndWord = title.split(" \\| ", 2);
      StringBuilder query = new StringBuilder();
      while (!query.toString().strip().endsWith(";")) {
        query.append(lines[++at]).append('\n');
      }
      String statement = query.toString().strip();
      entries.add(
          new Entry(
              nameAndWord[0],
              runs,
              onFlink,
              runs ? "" : nameAndWord[1],
              statement.substring(0, statement.length() - 1)));
    }
    return entries;
  }

  /** The corpus as {@code docs/sql-corpus.md} lists it, over the table {@code ddl} defines. */
  static String markdown(List<Entry> entries, String ddl) {
    long runs = entries.stream().filter(Entry::runs).count();
    StringBuilder md = new StringBuilder();
    md.append("# The Flink SQL that `sql` runs\n\n")
        .append("Each query below ran on Flink SQL 1.19 and on `sql` over the same JSON file, read")
        .append(
            " by the same\n`CREATE TABLE` (`--ddl`), with `NULL`s in it; `sql` gave Flink SQL's")
        .append(" rows for every query it\nruns, and refuses the others in one line that names")
        .append(
            " them. Each ran on the DirectRunner, and\nthose marked so on Flink at parallelism 2")
        .append(" too. The test that runs them (`FlinkSqlCorpusTest`)\nchecks this list: ")
        .append(runs)
        .append(" of ")
        .append(entries.size())
        .append(" queries run.\n\n")
        .append("| query | `sql` |\n|---|---|\n");
    for (Entry entry : entries) {
      md.append("| ")
          .append(entry.name().replace("|", "\\|"))
          .append(" | ")
          .append(
              entry.onFlink()
                  ? "Flink SQL's rows, DirectRunner and Flink"
                  : entry.runs() ? "Flink SQL's rows" : "refused")
          .append(" |\n");
    }
    md.append("\nThe table definition they read:\n\n```sql\n").append(ddl).append("\n```\n");
    for (Entry entry : entries) {
      md.append("\n## ")
          .append(entry.name())
          .append(entry.runs() ? "" : " (refused)")
          .append("\n\n```sql\n")
          .append(entry.query())
          .append("\n```\n");
    }
    return md.toString();
  }
}
