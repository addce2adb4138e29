package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasKey;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadsCpuTest {

  @Test
  void readsUserAndSystemTicksAfterACommandNameWithSpacesAndParentheses() {
    String stat =
        "4242 (C2 Compiler) x)) S 1 4242 4242 0 -1 4194368 100 0 0 0 731 58 0 0 20 0 1 0 99 0 0";

    assertThat(ThreadsCpu.ticks(stat), equalTo(789L));
  }

  @Test
  void countsThisJvmsCompilerThreadsAmongAllItsThreads() {
    ThreadsCpu cpu = ThreadsCpu.of(ProcessHandle.current().pid());

    // The JVM that runs the tests has compiled for far more than one tick (10 ms) by now.
    assertThat(cpu.compilerTicks(), greaterThan(0L));
    assertThat(cpu.allTicks(), greaterThan(cpu.compilerTicks()));
  }

  @Test
  void theCompilersShareIsOfTheTicksBetweenTwoReadings() {
    ThreadsCpu later = new ThreadsCpu(500, 150, Map.of()).minus(new ThreadsCpu(100, 50, Map.of()));

    assertThat(later.compilerShare(), closeTo(0.25, 1e-9));
    assertThat(ThreadsCpu.NONE.compilerShare(), equalTo(0.0));
  }

  @Test
  void countsThreadsWhoseNamesDifferInTheirNumbersAsOne() {
    assertThat(ThreadsCpu.groupOf("GC Thread#1"), equalTo("GC Thread##"));
    assertThat(ThreadsCpu.groupOf("C2 CompilerThre"), equalTo("C# CompilerThre"));
    assertThat(ThreadsCpu.groupOf("Source: CountPe"), equalTo("Source: CountPe"));
  }

  @Test
  void namesTheBusiestThreadsSinceAnEarlierReadingWithTheirPartOfATotal() {
    ThreadsCpu earlier =
        new ThreadsCpu(100, 40, Map.of("C# CompilerThre", 40L, "Source: CountPe", 60L));
    ThreadsCpu later =
        new ThreadsCpu(
            1100, 340, Map.of("C# CompilerThre", 340L, "Source: CountPe", 755L, "GC Thread##", 5L));

    // 1,000 ticks since: 300 compiling, 695 reading, 5 (under 1 %) collecting garbage.
    assertThat(
        later.minus(earlier).busiest(10.0), equalTo("Source: CountPe 6.95, C# CompilerThre 3.00"));
  }

  @Test
  void readsThisJvmsThreadsByName() {
    ThreadsCpu cpu = ThreadsCpu.of(ProcessHandle.current().pid());

    assertThat(cpu.ticksByName(), hasKey("C# CompilerThre"));
    assertThat(
        cpu.ticksByName().values().stream().mapToLong(Long::longValue).sum(),
        equalTo(cpu.allTicks()));
  }
}
