package dev.tidemark.transforms.testing;

import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.parse.BadRecordException;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.watermark.ClockSkewGuard;
import dev.tidemark.transforms.watermark.Watermarks;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * What a replay must output, computed directly from the recordings, without Beam: each line meets
 * the watermark {@code newest admitted event time so far - bound - 1 ms} of its own recording; for
 * each window that holds it ({@link WindowsHolding}), it is on time if that is before the window's
 * end, late within the lateness up to the window's expiry, and late beyond it after; a line late
 * beyond the lateness for any of its windows is in the late output once. Each window with data gets
 * an ON_TIME pane if any record was on time, then one LATE pane per record late within the lateness
 * (in the order of the watermark they met, then input, then line); panes accumulate and the last is
 * final.
 */
public final class ReplayReference {

  /** One predicted pane and the records in it, accumulated. */
  public record Pane(
      String key,
      long windowStart,
      long windowEnd,
      String timing,
      long index,
      boolean isFinal,
      List<Event> records) {

    public long count() {
      return records.size();
    }

    public long sum() {
      return records.stream().mapToLong(Event::value).sum();
    }

    /** "key,windowStart-windowEnd TIMING#index[ final] count/sum", as count's tests compare. */
    public String describe() {
      return key
          + ","
          + windowStart
          + "-"
          + windowEnd
          + " "
          + timing
          + "#"
          + index
          + (isFinal ? " final " : " ")
          + count()
          + "/"
          + sum();
    }
  }

  /** A recording: its lines in order, how to parse them, and its out-of-orderness bound. */
  public record Recording(List<String> lines, EventFormat format, Duration maxOutOfOrderness) {}

  public final List<Pane> panes = new ArrayList<>();
  public final Set<String> late = new HashSet<>();
  public final Set<String> dead = new HashSet<>();

  private ReplayReference() {}

  /** The reference for one recording. */
  public static ReplayReference of(Recording recording, EventTimeWindowing windowing) {
    return of(List.of(recording), windowing);
  }

  /** The reference for recordings read side by side (input 0, 1, ...), as a join reads them. */
  public static ReplayReference of(List<Recording> recordings, EventTimeWindowing windowing) {
    ReplayReference reference = new ReplayReference();
    ClockSkewGuard guard = ClockSkewGuard.withDefaultSkew();
    Map<String, List<Arrival>> onTime = new TreeMap<>();
    Map<String, List<Arrival>> lateWithinLateness = new TreeMap<>();
    SessionsOfKeys sessions =
        windowing.kind().merges()
            ? new SessionsOfKeys(windowing, onTime, lateWithinLateness, reference.late)
            : null;
    for (int input = 0; input < recordings.size(); input++) {
      Recording recording = recordings.get(input);
      Instant maxEventTime = null;
      long position = 0;
      for (String line : recording.lines()) {
        position++;
        Instant watermark =
            maxEventTime == null
                ? Watermarks.MIN
                : Watermarks.behind(maxEventTime, recording.maxOutOfOrderness());
        Event event;
        try {
          event = recording.format().parse(line);
        } catch (BadRecordException e) {
          reference.dead.add(line);
          continue;
        }
        if (guard.refuses(event.eventTime(), Instant.now())) {
          reference.dead.add(line);
          continue;
        }
        maxEventTime =
            maxEventTime == null
                ? event.eventTime()
                : Watermarks.latest(maxEventTime, event.eventTime());
        if (sessions != null) {
          sessions.add(new Arrival(watermark.getMillis(), input, position, event, null), line);
          continue;
        }
        int missed = 0;
        List<long[]> holding = WindowsHolding.of(windowing, event.eventTime().getMillis());
        for (long[] bounds : holding) {
          IntervalWindow window =
              new IntervalWindow(new Instant(bounds[0]), new Instant(bounds[1]));
          String windowKey =
              event.key().text() + "\u0000" + window.start().getMillis() + "-" + bounds[1];
          Arrival arrival = new Arrival(watermark.getMillis(), input, position, event, window);
          if (WindowsHolding.expired(windowing, bounds[1], watermark.getMillis())) {
            missed++;
          } else if (watermark.getMillis() < bounds[1]) {
            onTime.computeIfAbsent(windowKey, k -> new ArrayList<>()).add(arrival);
          } else {
            lateWithinLateness.computeIfAbsent(windowKey, k -> new ArrayList<>()).add(arrival);
          }
        }
        if (missed > 0) {
          reference.late.add(line);
        }
      }
    }
    if (sessions != null) {
      sessions.finishAll();
    }
    Set<String> windows = new TreeSet<>(onTime.keySet());
    windows.addAll(lateWithinLateness.keySet());
    for (String windowKey : windows) {
      List<Arrival> early = onTime.getOrDefault(windowKey, List.of());
      List<Arrival> late = new ArrayList<>(lateWithinLateness.getOrDefault(windowKey, List.of()));
      late.sort(
          Comparator.comparingLong(Arrival::watermark)
              .thenComparingInt(Arrival::input)
              .thenComparingLong(Arrival::position));
      List<Event> accumulated = new ArrayList<>();
      early.forEach(arrival -> accumulated.add(arrival.event()));
      IntervalWindow window = (early.isEmpty() ? late.get(0) : early.get(0)).window();
      String key = (early.isEmpty() ? late.get(0) : early.get(0)).event().key().text();
      long index = 0;
      if (!early.isEmpty()) {
        reference.panes.add(pane(key, window, "ON_TIME", index++, late.isEmpty(), accumulated));
      }
      for (int i = 0; i < late.size(); i++) {
        accumulated.add(late.get(i).event());
        reference.panes.add(pane(key, window, "LATE", index++, i == late.size() - 1, accumulated));
      }
    }
    return reference;
  }

  /** Every pane described by {@code describe}, as a sorted list to compare with an output. */
  public List<String> panes(Function<Pane, String> describe) {
    List<String> described = new ArrayList<>();
    panes.forEach(pane -> described.add(describe.apply(pane)));
    described.sort(Comparator.naturalOrder());
    return described;
  }

  /** How many panes are LATE; a test that means to cover them checks this is not zero. */
  public long latePanes() {
    return panes.stream().filter(pane -> pane.timing().equals("LATE")).count();
  }

  private static Pane pane(
      String key,
      IntervalWindow window,
      String timing,
      long index,
      boolean isFinal,
      List<Event> accumulated) {
    return new Pane(
        key,
        window.start().getMillis(),
        window.end().getMillis(),
        timing,
        index,
        isFinal,
        List.copyOf(accumulated));
  }

  private record Arrival(
      long watermark, int input, long position, Event event, @Nullable IntervalWindow window) {

    Arrival in(IntervalWindow session) {
      return new Arrival(watermark, input, position, event, session);
    }
  }

  /**
   * The rules of session windows, written here on their own, for records in arrival order: a record
   * opens {@code [t, t + gap)}; open sessions of its key that overlap or touch it merge with it; a
   * session closes when the watermark reaches its end, and expires when its last millisecond plus
   * the lateness is behind it; a record that touches no open session is late when its window starts
   * at or before the end of its key's latest expired session (it could join only expired ones) or
   * has expired itself; one that joins a closed session is late within the lateness.
   */
  private static final class SessionsOfKeys {
    /** A session: its bounds, and its records on time and late within the lateness. */
    private static final class Session {
      long start;
      long end;
      final List<Arrival> onTime = new ArrayList<>();
      final List<Arrival> late = new ArrayList<>();
    }

    private final long gap;
    private final long lateness;
    private final Map<String, List<Arrival>> onTime;
    private final Map<String, List<Arrival>> lateWithinLateness;
    private final Set<String> lateLines;
    private final Map<String, List<Session>> open = new TreeMap<>();

    SessionsOfKeys(
        EventTimeWindowing windowing,
        Map<String, List<Arrival>> onTime,
        Map<String, List<Arrival>> lateWithinLateness,
        Set<String> lateLines) {
      this.gap = windowing.kind().size().getMillis();
      this.lateness = windowing.allowedLateness().getMillis();
      this.onTime = onTime;
      this.lateWithinLateness = lateWithinLateness;
      this.lateLines = lateLines;
    }

    void add(Arrival arrival, String line) {
      String key = arrival.event().key().text();
      long t = arrival.event().eventTime().getMillis();
      long watermark = arrival.watermark();
      List<Session> sessions = open.computeIfAbsent(key, k -> new ArrayList<>());
      for (Session session : List.copyOf(sessions)) {
        if (session.end - 1 + lateness < watermark) {
          finish(key, session);
          sessions.remove(session);
        }
      }
      List<Session> touched = new ArrayList<>();
      for (Session session : sessions) {
        if (session.start <= t + gap && session.end >= t) {
          touched.add(session);
        }
      }
      if (touched.isEmpty() && t + gap - 1 + lateness < watermark) {
        lateLines.add(line);
        return;
      }
      Session merged = new Session();
      merged.start = t;
      merged.end = t + gap;
      for (Session session : touched) {
        merged.start = Math.min(merged.start, session.start);
        merged.end = Math.max(merged.end, session.end);
        merged.onTime.addAll(session.onTime);
        merged.late.addAll(session.late);
        sessions.remove(session);
      }
      (watermark >= merged.end ? merged.late : merged.onTime).add(arrival);
      sessions.add(merged);
    }

    void finishAll() {
      open.forEach((key, sessions) -> sessions.forEach(session -> finish(key, session)));
    }

    private void finish(String key, Session session) {
      IntervalWindow window =
          new IntervalWindow(new Instant(session.start), new Instant(session.end));
      String windowKey = key + "\u0000" + session.start + "-" + session.end;
      for (Arrival arrival : session.onTime) {
        onTime.computeIfAbsent(windowKey, k -> new ArrayList<>()).add(arrival.in(window));
      }
      for (Arrival arrival : session.late) {
        lateWithinLateness
            .computeIfAbsent(windowKey, k -> new ArrayList<>())
            .add(arrival.in(window));
      }
    }
  }
}
