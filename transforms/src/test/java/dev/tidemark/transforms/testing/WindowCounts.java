package dev.tidemark.transforms.testing;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * The count of scenario S1 for tests: {@code key,epochMillis} lines counted per key in tumbling
 * event-time windows, as {@code "key,windowStart,windowEnd=count"} strings, and the same counts
 * computed directly from the lines to compare with.
 */
public final class WindowCounts extends PTransform<PCollection<String>, PCollection<String>> {

  /** Scenario S1's input, one line each, in the order the user sent it. */
  public static final List<String> S1_LINES =
      List.of(
          "01,1586489566000",
          "01,1586489567000",
          "01,1586489568000",
          "01,1586489569000",
          "01,1586489570000",
          "01,1586489571000",
          "01,1586489572000",
          "01,1586489573000",
          "01,1586489574000",
          "01,1586489575000",
          "01,1586489576000",
          "01,1586489577000",
          "01,1586489578000",
          "01,1586489579000",
          "01,1586489589000");

  private final Duration windowSize;

  private WindowCounts(Duration windowSize) {
    this.windowSize = windowSize;
  }

  public static WindowCounts of(Duration windowSize) {
    return new WindowCounts(windowSize);
  }

  @Override
  public PCollection<String> expand(PCollection<String> lines) {
    return lines
        .apply(
            "KeyByFirstField",
            WithKeys.of((String line) -> line.split(",")[0]).withKeyType(TypeDescriptors.strings()))
        .apply("Window", Window.<KV<String, String>>into(FixedWindows.of(windowSize)))
        .apply("CountPerKey", Count.perKey())
        .apply("Format", ParDo.of(new FormatFn()));
  }

  /** What {@link #expand} must produce for {@code lines}, computed without Beam. */
  public static List<String> expected(List<String> lines, Duration windowSize) {
    Map<String, Long> counts = new TreeMap<>();
    for (String line : lines) {
      String[] fields = line.split(",");
      long t = Long.parseLong(fields[1]);
      long start = t - Math.floorMod(t, windowSize.getMillis());
      counts.merge(fields[0] + "," + start + "," + (start + windowSize.getMillis()), 1L, Long::sum);
    }
    return counts.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }

  private static final class FormatFn extends DoFn<KV<String, Long>, String> {
    @ProcessElement
    public void processElement(
        @Element KV<String, Long> count, BoundedWindow window, OutputReceiver<String> out) {
      IntervalWindow w = (IntervalWindow) window;
      out.output(
          count.getKey()
              + ","
              + w.start().getMillis()
              + ","
              + w.end().getMillis()
              + "="
              + count.getValue());
    }
  }
}
