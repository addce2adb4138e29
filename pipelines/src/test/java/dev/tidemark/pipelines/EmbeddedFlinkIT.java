package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.in;
import static org.hamcrest.Matchers.not;

import dev.tidemark.transforms.testing.SuiteOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded run, as a user starts it ({@code java -jar tidemark.jar count}), listens only on the
 * loopback interface, and leaves nothing in the temp directory when it ends. The sockets are read
 * from {@code /proc} while the job runs: the listening ones of the child JVMs, by inode.
 */
@Order(SuiteOrder.LONG)
class EmbeddedFlinkIT {

  /** 127.0.0.1, ::ffff:127.0.0.1 and ::1, as {@code /proc/net/tcp*} writes them. */
  private static final Set<String> LOOPBACK =
      Set.of("0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000");

  @TempDir Path directory;

  @Test
  void listensOnLoopbackOnlyAndLeavesNoFiles() throws Exception {
    Path temp = Files.createDirectory(directory.resolve("tmp"));
    Process run =
        TidemarkJar.runWith(
                List.of("-Djava.io.tmpdir=" + temp),
                "count",
                "--source=generator:records=30000,keys=3,rate=5000,seed=2",
                "--sink=file:" + directory.resolve("results.json"))
            .redirectOutput(directory.resolve("run.log").toFile())
            .start();
    Set<String> listening = new HashSet<>();
    while (run.isAlive()) {
      // The jar's JVM, and the one it runs the job in when it has its startup archive.
      listening.addAll(listeningAddresses(run.pid()));
      for (ProcessHandle jvm : run.descendants().toList()) {
        listening.addAll(listeningAddresses(jvm.pid()));
      }
      Thread.sleep(200);
    }
    assertThat("ends within 2 min", run.waitFor(2, TimeUnit.MINUTES), equalTo(true));
    String log = Files.readString(directory.resolve("run.log"));
    assertThat(log, run.exitValue(), equalTo(0));

    assertThat("it listened on something", listening, not(empty()));
    assertThat(listening, everyItem(in(LOOPBACK)));
    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.toList(), empty());
    }
  }

  /** The addresses (without ports) the process listens on, from {@code /proc}. */
  private static Set<String> listeningAddresses(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException closedMeanwhile) {
          // The descriptor closed while being read.
        }
      }
    } catch (IOException ended) {
      return Set.of();
    }
    Set<String> addresses = new HashSet<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> rows = new ArrayList<>(Files.readAllLines(Path.of(table)));
      for (String row : rows.subList(1, rows.size())) {
        String[] fields = row.trim().split("\\s+");
        boolean isListening = fields[3].equals("0A");
        if (isListening && inodes.contains(fields[9])) {
          addresses.add(fields[1].substring(0, fields[1].indexOf(':')));
        }
      }
    }
    return addresses;
  }
}
