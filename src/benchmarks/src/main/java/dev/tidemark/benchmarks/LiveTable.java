package dev.tidemark.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The Kafka benchmark's printed table: per variant, the seconds until its results were exact (min,
 * median, max of the valid runs), the records per second that makes, the CPU seconds its JVM used
 * per million records, its fixed cost (the median time of its runs on the short topic) and its rate
 * once running ({@link Table#onceRunning}); then tidemark's ratio to the hand-written job (and
 * {@code sql}'s to Flink SQL) by medians, over the whole run and once running, from how many
 * records it is as fast over the whole run ({@link BreakEven}), and its ratio in each round ({@link
 * Table#pairedRatios}).
 */
final class LiveTable {

  private LiveTable() {}

  static String of(
      Map<LiveVariant, List<Result>> results,
      Map<LiveVariant, List<Result>> startups,
      S5Topic topic,
      int parallelism) {
    StringBuilder table = new StringBuilder();
    table.append(
        String.format(
            Locale.ROOT,
            "%n%,d records on a %d-partition topic (%,d in complete windows), parallelism %d,"
                + " one JVM per run, timed until exact%n%n"
                + "| variant | valid runs | min s | median s | max s | median records/s"
                + " | median CPU s per 1M records | fixed cost (s) | records/s once running |%n"
                + "|---|---|---|---|---|---|---|---|---|%n",
            topic.records(),
            S5Topic.PARTITIONS,
            topic.inCompleteWindows(),
            parallelism));
    for (Map.Entry<LiveVariant, List<Result>> entry : results.entrySet()) {
      List<Double> seconds = valid(entry.getValue(), result -> result.millis() / 1000.0);
      List<Double> cpu = valid(entry.getValue(), Result::cpuSecondsPerMillion);
      table.append(
          String.format(
              Locale.ROOT,
              "| %s | %d of %d | %.1f | %.1f | %.1f | %,.0f | %.1f | %.1f | %,.0f |%n",
              entry.getKey().label(),
              seconds.size(),
              entry.getValue().size(),
              first(seconds),
              Table.median(seconds),
              last(seconds),
              Table.median(valid(entry.getValue(), Result::eventsPerSecond)),
              Table.median(cpu),
              Table.fixedCostMillis(startups.get(entry.getKey())) / 1000,
              Table.onceRunning(entry.getValue(), startups.get(entry.getKey()))));
    }
    compare(table, results, startups, LiveVariant.TIDEMARK, LiveVariant.NATIVE_FLINK);
    compare(table, results, startups, LiveVariant.TIDEMARK_SQL, LiveVariant.FLINK_SQL);
    return table.append(String.format("%n")).toString();
  }

  /** {@code one}'s ratio to {@code other}, when both ran: by medians, and in each round. */
  private static void compare(
      StringBuilder table,
      Map<LiveVariant, List<Result>> results,
      Map<LiveVariant, List<Result>> startups,
      LiveVariant one,
      LiveVariant another) {
    List<Result> ones = results.get(one);
    List<Result> others = results.get(another);
    if (ones != null && others != null) {
      List<Double> paired = Table.pairedRatios(ones, others);
      double oneFixed = Table.fixedCostMillis(startups.get(one));
      double oneRunning = Table.onceRunning(ones, startups.get(one));
      double anotherFixed = Table.fixedCostMillis(startups.get(another));
      double anotherRunning = Table.onceRunning(others, startups.get(another));
      table.append(
          String.format(
              Locale.ROOT,
              "%n%s / %s (medians): %.2fx the speed, %.2fx the CPU per record;"
                  + " %.2fx once running, after a fixed cost of %.1f s against %.1f s;"
                  + " as fast over the whole run %s",
              one.label(),
              another.label(),
              Table.median(valid(ones, Result::eventsPerSecond))
                  / Table.median(valid(others, Result::eventsPerSecond)),
              Table.median(valid(ones, Result::cpuSecondsPerMillion))
                  / Table.median(valid(others, Result::cpuSecondsPerMillion)),
              oneRunning / anotherRunning,
              oneFixed / 1000,
              anotherFixed / 1000,
              new BreakEven(oneFixed, oneRunning, anotherFixed, anotherRunning)
                  .describe("records")));
      if (!paired.isEmpty()) {
        table.append(
            String.format(
                Locale.ROOT,
                "%n  run by run (each pair back to back): %.2fx to %.2fx, median %.2fx",
                first(paired),
                last(paired),
                Table.median(paired)));
      }
    }
  }

  private static List<Double> valid(List<Result> results, ToDoubleFunction<Result> value) {
    List<Double> values = new ArrayList<>();
    for (Result result : results) {
      if (result.isValid()) {
        values.add(value.applyAsDouble(result));
      }
    }
    Collections.sort(values);
    return values;
  }

  private static double first(List<Double> sorted) {
    return sorted.isEmpty() ? Double.NaN : sorted.get(0);
  }

  private static double last(List<Double> sorted) {
    return sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() - 1);
  }
}
