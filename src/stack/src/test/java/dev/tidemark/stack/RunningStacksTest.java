package dev.tidemark.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command without {@code --dir} finds its stack only when exactly one is running: with none, or
 * with several, it refuses and says why. A stack whose nodes have all gone is not running.
 */
class RunningStacksTest {

  @TempDir Path temp;

  @Test
  void theOneRunningStackIsFound() throws IOException {
    RunningStacks stacks = new RunningStacks(temp.resolve("registry"));
    Path mine = stackWhoseNodeIs(temp.resolve("mine"), ProcessHandle.current().pid());
    stacks.register(mine);

    assertThat(stacks.theOnlyOne(), equalTo(mine.toAbsolutePath().normalize()));
  }

  @Test
  void noneRunningOrSeveralRunningIsRefusedInOneLine() throws IOException {
    RunningStacks stacks = new RunningStacks(temp.resolve("registry"));
    assertThat(refusal(stacks), equalTo("no stack is running (stack start)"));

    Path a = stackWhoseNodeIs(temp.resolve("a"), ProcessHandle.current().pid());
    Path b = stackWhoseNodeIs(temp.resolve("b"), ProcessHandle.current().pid());
    stacks.register(a);
    stacks.register(b);
    assertThat(
        refusal(stacks),
        equalTo(
            "2 stacks are running, in "
                + a.toAbsolutePath().normalize()
                + ", "
                + b.toAbsolutePath().normalize()
                + "; say which with --dir=DIR"));

    stacks.unregister(b);
    assertThat(stacks.theOnlyOne(), equalTo(a.toAbsolutePath().normalize()));
  }

  @Test
  void aStackWhoseNodesAreGoneIsNotRunning() throws Exception {
    RunningStacks stacks = new RunningStacks(temp.resolve("registry"));
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    stacks.register(stackWhoseNodeIs(temp.resolve("gone"), ended.pid()));

    assertThat(stacks.running(), empty());
    assertThat(refusal(stacks), equalTo("no stack is running (stack start)"));
  }

  /** A stack directory as {@code start} leaves it, with one node of process id {@code pid}. */
  private static Path stackWhoseNodeIs(Path directory, long pid) throws IOException {
    Files.createDirectories(directory);
    Files.writeString(
        directory.resolve(RunningStacks.STATE),
        "kafka=127.0.0.1:1\nflink=localhost:2\npids=" + pid);
    return directory;
  }

  private static String refusal(RunningStacks stacks) {
    return assertThrows(IllegalArgumentException.class, stacks::theOnlyOne).getMessage();
  }
}
