package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

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
    ThreadsCpu later = new ThreadsCpu(500, 150).minus(new ThreadsCpu(100, 50));

    assertThat(later.compilerShare(), closeTo(0.25, 1e-9));
    assertThat(new ThreadsCpu(0, 0).compilerShare(), equalTo(0.0));
  }
}
