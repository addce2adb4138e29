package dev.tidemark.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/** The CPU time this JVM has used, all its threads together (user and system). */
final class ProcessCpu {

  private ProcessCpu() {}

  static long millis() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1_000_000;
  }
}
