package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.WindowPane;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Joins each pane of a key that {@link CollectRecordsFn} collected: every left record of the pane,
 * in the order it was read, merged with the newest right record of the pane or with none ({@link
 * NewestMatch}). Shared by the live and the replayed join, so both emit the same records for the
 * same pane.
 */
public final class MergeMatchesFn
    extends DoFn<KV<EventKey, KV<WindowPane, List<KV<Integer, Event>>>>, JoinedRecord> {

  /** The side number of a left record: every one is emitted. */
  public static final int LEFT_SIDE = 0;

  /** The side number of a right record: the newest one of a pane is matched. */
  public static final int RIGHT_SIDE = 1;

  private final MergeRecords merge;

  public MergeMatchesFn(MergeRecords merge) {
    this.merge = merge;
  }

  @ProcessElement
  public void processElement(
      @Element KV<EventKey, KV<WindowPane, List<KV<Integer, Event>>>> pane,
      OutputReceiver<JoinedRecord> out) {
    List<Event> lefts = new ArrayList<>();
    List<Event> rights = new ArrayList<>();
    for (KV<Integer, Event> record : pane.getValue().getValue()) {
      (record.getKey() == LEFT_SIDE ? lefts : rights).add(record.getValue());
    }
    // Left records in the order they were read, so a pane reads the same in every run.
    lefts.sort(Comparator.comparingLong(Event::position));
    NewestMatch.join(
        pane.getKey().text(), pane.getValue().getKey(), lefts, rights, merge, out::output);
  }
}
