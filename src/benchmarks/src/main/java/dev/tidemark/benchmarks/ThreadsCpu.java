package dev.tidemark.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A process's CPU time so far, in clock ticks, all its threads together, its JIT compiler threads
 * alone, and by thread name, as Linux counts them in {@code /proc/PID/task/TID/stat}: how much of a
 * job's CPU went to compiling its code rather than to its records, and which of its threads used
 * the rest. Linux keeps the first 15 characters of a thread's name ({@code comm}); threads whose
 * names differ only in their numbers ({@code GC Thread#0}, {@code GC Thread#1}) count as one. A
 * thread that ended between two readings is not in the second, so the difference of two readings
 * can miss a little of it; the JVM's compiler threads live as long as the JVM. Where there is no
 * {@code /proc} every count is 0.
 */
record ThreadsCpu(long allTicks, long compilerTicks, Map<String, Long> ticksByName) {

  /** HotSpot names its compiler threads {@code C1 CompilerThread0}, {@code C2 CompilerThread1}. */
  private static final String COMPILER_THREAD = "CompilerThre";

  static final ThreadsCpu NONE = new ThreadsCpu(0, 0, Map.of());

  static ThreadsCpu of(long pid) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    long all = 0;
    long compiler = 0;
    Map<String, Long> byName = new HashMap<>();
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        try {
          long ticks = ticks(Files.readString(thread.resolve("stat")));
          String name = Files.readString(thread.resolve("comm")).strip();
          all += ticks;
          if (name.contains(COMPILER_THREAD)) {
            compiler += ticks;
          }
          byName.merge(groupOf(name), ticks, Long::sum);
        } catch (IOException threadEnded) {
          // It ended as it was read: its time is gone from the process's threads either way.
        }
      }
    } catch (IOException noProc) {
      return NONE;
    }
    return new ThreadsCpu(all, compiler, Map.copyOf(byName));
  }

  /** A thread's name with each run of digits as {@code #}: the threads of one pool together. */
  static String groupOf(String threadName) {
    return threadName.replaceAll("[0-9]+", "#");
  }

  /** Since {@code earlier}. */
  ThreadsCpu minus(ThreadsCpu earlier) {
    Map<String, Long> byName = new HashMap<>();
    ticksByName.forEach(
        (name, ticks) -> byName.put(name, ticks - earlier.ticksByName.getOrDefault(name, 0L)));
    return new ThreadsCpu(
        allTicks - earlier.allTicks, compilerTicks - earlier.compilerTicks, Map.copyOf(byName));
  }

  /** The compiler threads' share of all the threads' time, 0 when nothing was counted. */
  double compilerShare() {
    return allTicks <= 0 ? 0 : (double) compilerTicks / allTicks;
  }

  /**
   * The threads that used at least 1 % of the time, the busiest first, each with its part of {@code
   * total} (the process's CPU in some unit, such as seconds per million records): {@code "C#
   * CompilerThre 2.81, Source: CountPe 1.90"}.
   */
  String busiest(double total) {
    List<Map.Entry<String, Long>> busiestFirst = new ArrayList<>(ticksByName.entrySet());
    busiestFirst.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    StringJoiner threads = new StringJoiner(", ");
    for (Map.Entry<String, Long> thread : busiestFirst) {
      double share = allTicks <= 0 ? 0 : (double) thread.getValue() / allTicks;
      if (share >= 0.01) {
        threads.add(String.format(Locale.ROOT, "%s %.2f", thread.getKey(), share * total));
      }
    }
    return threads.toString();
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
