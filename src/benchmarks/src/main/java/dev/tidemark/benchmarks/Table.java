package dev.tidemark.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The benchmark's printed table: min, median, max events/s per variant, and the ratios. */
final class Table {

  private Table() {}

  static String of(Map<Variant, List<Result>> results, long lines, int parallelism) {
    StringBuilder table = new StringBuilder();
    table.append(
        String.format(
            Locale.ROOT,
            "%n%,d lines, parallelism %d, one JVM per run%n%n"
                + "| variant | valid runs | min events/s | median events/s | max events/s |%n"
                + "|---|---|---|---|---|%n",
            lines,
            parallelism));
    for (Map.Entry<Variant, List<Result>> entry : results.entrySet()) {
      List<Double> rates = validRates(entry.getValue());
      table.append(
          String.format(
              Locale.ROOT,
              "| %s | %d of %d | %s | %s | %s |%n",
              entry.getKey().label(),
              rates.size(),
              entry.getValue().size(),
              rates.isEmpty() ? "-" : format(rates.get(0)),
              rates.isEmpty() ? "-" : format(median(rates)),
              rates.isEmpty() ? "-" : format(rates.get(rates.size() - 1))));
    }
    double tidemark = median(validRates(results.get(Variant.TIDEMARK)));
    for (Variant other : List.of(Variant.NATIVE_FLINK, Variant.PLAIN_BEAM)) {
      double median = median(validRates(results.get(other)));
      table.append(
          String.format(
              Locale.ROOT, "%ntidemark / %s (medians): %.2fx", other.label(), tidemark / median));
    }
    return table.append(String.format("%n")).toString();
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

  private static double median(List<Double> sorted) {
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
