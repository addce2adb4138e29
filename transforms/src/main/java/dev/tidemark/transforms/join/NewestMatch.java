package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.WindowPane;
import java.util.Comparator;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Joins the records of one pane: every left record, merged with the newest right record (latest
 * event time, ties broken by the text) or with none. Shared by the live and the replayed join, so
 * both emit the same records for the same pane.
 */
public final class NewestMatch {

  private static final Comparator<Event> NEWEST_LAST =
      Comparator.comparing(Event::eventTime).thenComparing(Event::raw);

  private NewestMatch() {}

  /** Emits one {@link JoinedRecord} per left record of {@code key}'s {@code pane}. */
  public static void join(
      String key,
      WindowPane pane,
      Iterable<Event> lefts,
      Iterable<Event> rights,
      MergeRecords merge,
      Consumer<JoinedRecord> out) {
    @Nullable Event newestRight = null;
    for (Event right : rights) {
      if (newestRight == null || NEWEST_LAST.compare(right, newestRight) > 0) {
        newestRight = right;
      }
    }
    for (Event left : lefts) {
      out.accept(
          new JoinedRecord(
              key,
              pane,
              newestRight != null,
              merge.merge(left.raw(), newestRight == null ? null : newestRight.raw())));
    }
  }
}
