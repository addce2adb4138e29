package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasKey;

import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilationsByLibraryTest {

  @Test
  void namesTheLibraryOfAClassByItsPackageAndOtherForTheRest() {
    assertThat(
        CompilationsByLibrary.libraryOf("org.apache.kafka.clients.NetworkClient"),
        equalTo("Kafka client"));
    assertThat(
        CompilationsByLibrary.libraryOf(
            "org.apache.kafka.common.record.MemoryRecords$$Lambda$1680+0x00007f7d587fe908"),
        equalTo("Kafka client"));
    assertThat(
        CompilationsByLibrary.libraryOf("org.apache.flink.shaded.netty4.io.netty.Buffer"),
        equalTo("Flink"));
    assertThat(
        CompilationsByLibrary.libraryOf("org.apache.beam.runners.core.SimpleDoFnRunner"),
        equalTo("Beam"));
    assertThat(
        CompilationsByLibrary.libraryOf("dev.tidemark.transforms.windowing.LivePanesFn"),
        equalTo("tidemark"));
    assertThat(
        CompilationsByLibrary.libraryOf("dev.tidemark.benchmarks.SteadyJob$AppendRows"),
        equalTo("the benchmark's job"));
    assertThat(CompilationsByLibrary.libraryOf("java.util.HashMap"), equalTo("JDK"));
    assertThat(CompilationsByLibrary.libraryOf("sun.nio.ch.IOUtil"), equalTo("JDK"));
    assertThat(CompilationsByLibrary.libraryOf("org.apache.kafkaesque.Thing"), equalTo("other"));
  }

  @Test
  void countsTheCompilationsThatBeganInTheWindowUnderTheirLibraries(@TempDir Path directory)
      throws Exception {
    Path recording = directory.resolve("compilations.jfr");
    Instant from;
    Instant to;
    try (RecordingStream stream =
        new RecordingStream(
            Configuration.create(new StringReader(CompilationsByLibrary.SETTINGS)))) {
      CountDownLatch hotCompiled = new CountDownLatch(1);
      stream.onEvent(
          "jdk.Compilation",
          event -> {
            RecordedMethod method = event.getValue("method");
            if (method.getType().getName().equals(Hot.class.getName())) {
              hotCompiled.countDown();
            }
          });
      stream.startAsync();
      from = Instant.now();
      long sum = 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      // Hot's one method runs until the JIT has compiled it: its class is first used here.
      while (!hotCompiled.await(0, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
        for (int i = 0; i < 100_000; i++) {
          sum += Hot.mix(i);
        }
      }
      to = Instant.now();
      assertThat("Hot compiled within 60 s (" + sum + ")", hotCompiled.getCount(), equalTo(0L));
      stream.dump(recording);
    }

    CompilationsByLibrary inTheWindow = CompilationsByLibrary.read(recording, from, to);
    CompilationsByLibrary afterIt =
        CompilationsByLibrary.read(recording, to.plusSeconds(3600), to.plusSeconds(7200));

    assertThat(inTheWindow.byLibrary(), hasKey("the benchmark's job"));
    assertThat(inTheWindow.byLibrary().get("the benchmark's job"), greaterThan(Duration.ZERO));
    assertThat(inTheWindow.line(), containsString("the benchmark's job "));
    assertThat(afterIt.byLibrary(), aMapWithSize(0));
    assertThat(afterIt.line(), equalTo("no JIT compile task began in the measured part"));
  }

  @Test
  void givesEachLibrarysShareOfTheTotalTheLongestFirst() {
    CompilationsByLibrary compiled =
        new CompilationsByLibrary(
            Map.of("Beam", Duration.ofMillis(250), "Kafka client", Duration.ofMillis(750)));

    assertThat(
        compiled.line(),
        equalTo(
            "JIT compile tasks begun in the measured part: 1.00 s; Kafka client 0.75 s (75 %),"
                + " Beam 0.25 s (25 %)"));
  }

  /** A class of its own, so that its method is compiled after the recording starts. */
  private static final class Hot {
    static long mix(long value) {
      long mixed = value * 0x9E3779B97F4A7C15L;
      return mixed ^ (mixed >>> 31);
    }
  }
}
