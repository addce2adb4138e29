package dev.tidemark.transforms.testing;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.WindowResult;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.CountPerWindow;
import dev.tidemark.transforms.windowing.Expired;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Where every record of a {@code ParseEvents} + {@code CountPerWindow} pipeline ended, collected in
 * this JVM: the final panes, the late records and the dead letters.
 */
public final class CountedOutputs {

  private final Collected finalPanes = new Collected();
  private final Collected late = new Collected();
  private final Collected deadLetters = new Collected();
  private final Collected latePanesBeforeTheFinal = new Collected();

  private CountedOutputs() {}

  /** Attaches the collectors to {@code parsed} and {@code counted}; run the pipeline after. */
  public static CountedOutputs of(PCollectionTuple parsed, PCollectionTuple counted) {
    return of("", parsed, counted);
  }

  /** The same, its steps' names starting with {@code name}, so a pipeline can have several. */
  public static CountedOutputs of(String name, PCollectionTuple parsed, PCollectionTuple counted) {
    CountedOutputs outputs = new CountedOutputs();
    counted
        .get(CountPerWindow.RESULTS)
        .apply(
            name + "FinalPanes",
            Filter.by((WindowResult r) -> r.pane().isFinal() && !r.pane().isWithdrawn()))
        .apply(
            name + "FinalCounts",
            MapElements.into(TypeDescriptors.strings())
                .via(
                    r ->
                        r.key()
                            + ","
                            + r.pane().windowStart().getMillis()
                            + ","
                            + r.pane().windowEnd().getMillis()
                            + "="
                            + r.count()
                            + ","
                            + r.sum()))
        .apply(name + "CollectFinal", outputs.finalPanes.sink());
    counted
        .get(CountPerWindow.RESULTS)
        .apply(
            name + "LatePanesBeforeTheFinal",
            Filter.by((WindowResult r) -> r.pane().timing() == Timing.LATE && !r.pane().isFinal()))
        .apply(
            name + "LatePaneNames",
            MapElements.into(TypeDescriptors.strings()).via(WindowResult::toString))
        .apply(name + "CollectLatePanes", outputs.latePanesBeforeTheFinal.sink());
    counted
        .get(CountPerWindow.LATE)
        .apply(
            name + "LateLines",
            MapElements.into(TypeDescriptors.strings())
                .via((Expired<Event> late) -> late.value().raw()))
        .apply(name + "CollectLate", outputs.late.sink());
    parsed
        .get(ParseEvents.DEAD_LETTER)
        .apply(name + "DeadLines", MapElements.into(TypeDescriptors.strings()).via(DeadLetter::raw))
        .apply(name + "CollectDead", outputs.deadLetters.sink());
    return outputs;
  }

  /**
   * "key,windowStart,windowEnd" -> [count, sum] of each final pane; fails on a second one per
   * window.
   */
  public Map<String, List<Long>> finalCountsAndSums() {
    Map<String, List<Long>> panes = new TreeMap<>();
    for (String line : finalPanes.snapshot()) {
      String[] keyAndValues = line.split("=");
      String[] values = keyAndValues[1].split(",");
      List<Long> previous =
          panes.put(keyAndValues[0], List.of(Long.parseLong(values[0]), Long.parseLong(values[1])));
      assertThat("one final pane for " + keyAndValues[0], previous, equalTo(null));
    }
    return panes;
  }

  /** "key,windowStart,windowEnd" -> count of each final pane. */
  public Map<String, Long> finalCounts() {
    Map<String, Long> counts = new TreeMap<>();
    finalCountsAndSums().forEach((window, values) -> counts.put(window, values.get(0)));
    return counts;
  }

  /** How many records the final panes count. */
  public long countedInFinalPanes() {
    return finalCounts().values().stream().mapToLong(Long::longValue).sum();
  }

  /** How many LATE panes came before their window's final pane. */
  public int latePanesBeforeTheFinal() {
    return latePanesBeforeTheFinal.snapshot().size();
  }

  public List<String> lateRecords() {
    return late.snapshot();
  }

  public List<String> deadLetters() {
    return deadLetters.snapshot();
  }
}
