package dev.tidemark.pipelines.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's options table is the one {@code --help} gives: the same options, defaults and texts
 * ({@link OptionsTable}). On a difference, the message is the table to put in the README; the texts
 * themselves change in the options' {@code @Description}s and {@link Help#RUNNER_OPTIONS}.
 */
class OptionsTableTest {

  private static final String START =
      "<!-- The options table: OptionsTableTest checks it against --help. -->\n";
  private static final String END = "\n<!-- The end of the options table. -->";

  @Test
  void theReadmesOptionsTableIsTheOneHelpGives() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    int start = readme.indexOf(START);
    int end = readme.indexOf(END);
    assertThat("the README marks its options table", start >= 0 && end > start, equalTo(true));
    String expected = OptionsTable.markdown(Tidemark.optionsOfCommandsThatRead());
    assertThat(readme.substring(start + START.length(), end + 1), equalTo(expected));
  }

  @Test
  void aRowShowsEveryCommandsOwnDefault() {
    String table = OptionsTable.markdown(Tidemark.optionsOfCommandsThatRead());
    assertThat(
        table.lines().filter(row -> row.startsWith("| `--windowSize` |")).findFirst().orElseThrow(),
        equalTo(
            "| `--windowSize` | `5s` (`metrics`: `1s`) | Size of the event-time windows: tumbling,"
                + " unless --windowSlide or --windowStep is given |"));
    assertThat(
        table.lines().filter(row -> row.startsWith("| `--idleFlush` |")).findFirst().orElseThrow(),
        equalTo(
            "| `--idleFlush` | `--idleTimeout` | How long (wall clock) the watermark must stand"
                + " still, while a window holds records not yet reported, before that window emits"
                + " an EARLY result; a watermark that moves closes windows by itself, so a steady"
                + " stream gets no EARLY result |"));
  }
}
