package dev.tidemark.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's printed table: min, median and max events/s per variant over the whole run; the
 * median fixed cost (a short run's time); the rate per record once running (the long run's lines
 * beyond the short run's, over its median time beyond the short run's); tidemark's ratios; and from
 * how many lines tidemark is as fast over the whole run ({@link BreakEven}); and tidemark's ratio
 * in each round, whose two runs follow each other ({@link #pairedRatios}).
 */
final class Table {

  private Table() {}

  static String of(
      Map<Variant, List<Result>> results,
      Map<Variant, List<Result>> startups,
      long lines,
      int parallelism) {
    StringBuilder table = new StringBuilder();
    table.append(
        String.format(
            Locale.ROOT,
            "%n%,d lines, parallelism %d, one JVM per run%n%n"
                + "| variant | valid runs | min events/s | median events/s | max events/s"
                + " | fixed cost (s) | events/s once running |%n"
                + "|---|---|---|---|---|---|---|%n",
            lines,
            parallelism));
    for (Map.Entry<Variant, List<Result>> entry : results.entrySet()) {
      List<Double> rates = validRates(entry.getValue());
      Variant variant = entry.getKey();
      table.append(
          String.format(
              Locale.ROOT,
              "| %s | %d of %d | %s | %s | %s | %.1f | %s |%n",
              variant.label(),
              rates.size(),
              entry.getValue().size(),
              rates.isEmpty() ? "-" : format(rates.get(0)),
              rates.isEmpty() ? "-" : format(median(rates)),
              rates.isEmpty() ? "-" : format(rates.get(rates.size() - 1)),
              fixedCostMillis(startups.get(variant)) / 1000,
              format(onceRunning(results.get(variant), startups.get(variant)))));
    }
    double tidemark = median(validRates(results.get(Variant.TIDEMARK)));
    double tidemarkRunning =
        onceRunning(results.get(Variant.TIDEMARK), startups.get(Variant.TIDEMARK));
    double tidemarkFixed = fixedCostMillis(startups.get(Variant.TIDEMARK));
    for (Variant other : results.keySet()) {
      if (other == Variant.TIDEMARK) {
        continue;
      }
      double median = median(validRates(results.get(other)));
      double running = onceRunning(results.get(other), startups.get(other));
      BreakEven breakEven =
          new BreakEven(
              tidemarkFixed, tidemarkRunning, fixedCostMillis(startups.get(other)), running);
      table.append(
          String.format(
              Locale.ROOT,
              "%ntidemark / %s (medians): %.2fx over the whole run, %.2fx once running;"
                  + " as fast over the whole run %s",
              other.label(),
              tidemark / median,
              tidemarkRunning / running,
              breakEven.describe("lines")));
      List<Double> paired = pairedRatios(results.get(Variant.TIDEMARK), results.get(other));
      if (!paired.isEmpty()) {
        table.append(
            String.format(
                Locale.ROOT,
                "%n  run by run (each pair back to back): %.2fx to %.2fx, median %.2fx",
                paired.get(0),
                paired.get(paired.size() - 1),
                median(paired)));
      }
    }
    return table.append(String.format("%n")).toString();
  }

  /**
   * tidemark's events/s over the other variant's in each round where both runs are valid, sorted.
   * The two runs of a round follow each other, so a slow spell of a shared machine weighs on both;
   * the spread of these ratios shows how far one ratio of medians can be trusted.
   */
  static List<Double> pairedRatios(List<Result> tidemark, List<Result> other) {
    List<Double> ratios = new ArrayList<>();
    for (int round = 0; round < Math.min(tidemark.size(), other.size()); round++) {
      if (tidemark.get(round).isValid() && other.get(round).isValid()) {
        ratios.add(tidemark.get(round).eventsPerSecond() / other.get(round).eventsPerSecond());
      }
    }
    Collections.sort(ratios);
    return ratios;
  }

  /** The median time of the valid short runs. */
  static double fixedCostMillis(List<Result> startups) {
    return median(validMillis(startups));
  }

  /** Records per second beyond the short run: what each further record costs once running. */
  static double onceRunning(List<Result> results, List<Result> startups) {
    List<Double> millis = validMillis(results);
    List<Double> startupMillis = validMillis(startups);
    if (millis.isEmpty() || startupMillis.isEmpty()) {
      return Double.NaN;
    }
    long extraLines = results.get(0).lines() - startups.get(0).lines();
    return extraLines * 1000.0 / (median(millis) - median(startupMillis));
  }

  private static List<Double> validMillis(List<Result> results) {
    List<Double> millis = new ArrayList<>();
    for (Result result : results == null ? List.<Result>of() : results) {
      if (result.isValid()) {
        millis.add((double) result.millis());
      }
    }
    Collections.sort(millis);
    return millis;
  }

  private static List<Double> validRates(List<Result> results) {
    List<Double> rates = new ArrayList<>();
    for (Result result : results == null ? List.<Result>of() : results) {
      if (result.isValid()) {
        rates.add(result.eventsPerSecond());
      }
    }
    Collections.sort(rates);
    return rates;
  }

  /** The median of {@code sorted}; NaN when it is empty. */
  static double median(List<Double> sorted) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1
        ? sorted.get(middle)
        : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
  }

  private static String format(double rate) {
    return String.format(Locale.ROOT, "%,.0f", rate);
  }
}
