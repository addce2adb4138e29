package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's CPU time so far, in clock ticks, all its threads together and its JIT compiler
 * threads alone, as Linux counts them in {@code /proc/PID/task/TID/stat}: how much of a job's CPU
 * went to compiling its code rather than to its records. A thread that ended between two readings
 * is not in the second, so the difference of two readings can miss a little of it; the JVM's
 * compiler threads live as long as the JVM. Where there is no {@code /proc} both are 0.
 */
record ThreadsCpu(long allTicks, long compilerTicks) {

  /** HotSpot names its compiler threads {@code C1 CompilerThread0}, {@code C2 CompilerThread1}. */
  private static final String COMPILER_THREAD = "CompilerThre";

  static ThreadsCpu of(long pid) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    long all = 0;
    long compiler = 0;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        try {
          long ticks = ticks(Files.readString(thread.resolve("stat")));
          all += ticks;
          if (Files.readString(thread.resolve("comm")).contains(COMPILER_THREAD)) {
            compiler += ticks;
          }
        } catch (IOException threadEnded) {
          // It ended as it was read: its time is gone from the process's threads either way.
        }
      }
    } catch (IOException noProc) {
      return new ThreadsCpu(0, 0);
    }
    return new ThreadsCpu(all, compiler);
  }

  /** Since {@code earlier}. */
  ThreadsCpu minus(ThreadsCpu earlier) {
    return new ThreadsCpu(allTicks - earlier.allTicks, compilerTicks - earlier.compilerTicks);
  }

  /** The compiler threads' share of all the threads' time, 0 when nothing was counted. */
  double compilerShare() {
    return allTicks <= 0 ? 0 : (double) compilerTicks / allTicks;
  }

  /**
   * User and system ticks of one {@code stat} line: the 14th and 15th fields, counted after the
   * command name in parentheses, which may hold spaces.
   */
  static long ticks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
