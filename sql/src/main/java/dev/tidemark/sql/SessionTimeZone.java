package dev.tidemark.sql;

import dev.tidemark.transforms.watermark.ClockSkewGuard;
import java.io.Serializable;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneOffsetTransitionRule;
import java.time.zone.ZoneRules;
import java.util.Set;
import java.util.TreeSet;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * The time zone in which a query's {@code TIMESTAMP} values are local dates and times, as Flink
 * SQL's {@code table.local-time-zone} makes them of an event time ({@code TIMESTAMP_LTZ}): {@code
 * rowtime}, a {@code TIMESTAMP} column, {@code TUMBLE_START} and {@code TUMBLE_END}, {@code
 * window_start} and {@code window_end}, what {@code DATE_FORMAT} writes and a {@code TIMESTAMP}
 * literal in a {@code WHERE}. Calcite holds such a value as the epoch milliseconds of that local
 * date and time read as UTC; {@link #local} makes it of an instant.
 *
 * <h2>Windows</h2>
 *
 * <p>Flink aligns a tumbling window on the zone's local clock: a day starts at local midnight. The
 * pane engine aligns windows on the epoch, in UTC. The two agree when the window's size divides
 * every offset from UTC the zone has had since the earliest event time tidemark accepts (1973); a
 * query whose windows would start at another local time than Flink's is refused ({@link
 * #checkWindows}), never run with other windows than Flink would give.
 */
final class SessionTimeZone implements Serializable {

  private static final long serialVersionUID = 1L;

  static final SessionTimeZone UTC = new SessionTimeZone(ZoneOffset.UTC);

  private final ZoneId zone;

  /** The zone's offset in milliseconds when it never changes (UTC, +08:00); else null. */
  private final @Nullable Long fixedOffsetMillis;

  /** The zone's rules, looked up once rather than for each record. */
  private final ZoneRules rules;

  private SessionTimeZone(ZoneId zone) {
    this.zone = zone;
    this.rules = zone.getRules();
    this.fixedOffsetMillis =
        rules.isFixedOffset() ? rules.getOffset(Instant.EPOCH).getTotalSeconds() * 1000L : null;
  }

  static SessionTimeZone of(ZoneId zone) {
    return new SessionTimeZone(zone);
  }

  ZoneId zone() {
    return zone;
  }

  /**
   * The instant {@code epochMillis} as Calcite holds a local date and time in this zone; called for
   * each record's {@code rowtime}, so a fixed offset is added without asking the zone's rules.
   */
  long local(long epochMillis) {
    if (fixedOffsetMillis != null) {
      return epochMillis + fixedOffsetMillis;
    }
    return epochMillis
        + rules.getOffset(Instant.ofEpochMilli(epochMillis)).getTotalSeconds() * 1000L;
  }

  /**
   * Refuses windows of {@code size} that would start at another local time than Flink's in this
   * zone: those whose size does not divide each of the zone's offsets from UTC.
   *
   * @throws InvalidQueryException naming the offset the size does not divide
   */
  void checkWindows(Duration size) throws InvalidQueryException {
    for (ZoneOffset offset : offsetsSinceEarliestEventTime()) {
      long millis = offset.getTotalSeconds() * 1000L;
      if (millis % size.getMillis() != 0) {
        throw InvalidQueryException.refused(
            "in --timeZone="
                + zone.getId()
                + ", which has been UTC"
                + offset.getId().replace("Z", "+00:00")
                + " at times since 1973, a window of "
                + compact(size.getMillis())
                + " would start "
                + compact(Math.floorMod(millis, size.getMillis()))
                + " after the local time Flink SQL starts it at: sql aligns windows on UTC; give a"
                + " window that divides the zone's offset, or --timeZone=UTC");
      }
    }
  }

  /** {@code millis} as "5h30m", "24h" or "2s": the units it has, largest first. */
  private static String compact(long millis) {
    long[] sizes = {3_600_000, 60_000, 1_000, 1};
    String[] units = {"h", "m", "s", "ms"};
    StringBuilder text = new StringBuilder();
    long rest = millis;
    for (int u = 0; u < sizes.length; u++) {
      if (rest >= sizes[u]) {
        text.append(rest / sizes[u]).append(units[u]);
        rest %= sizes[u];
      }
    }
    return text.length() == 0 ? "0ms" : text.toString();
  }

  /** Every offset from UTC the zone has had or will have, from the earliest event time on. */
  private Set<ZoneOffset> offsetsSinceEarliestEventTime() {
    Instant earliest = Instant.ofEpochMilli(ClockSkewGuard.EARLIEST_EVENT_TIME.getMillis());
    Set<ZoneOffset> offsets = new TreeSet<>();
    offsets.add(rules.getOffset(earliest));
    for (ZoneOffsetTransition transition : rules.getTransitions()) {
      if (transition.getInstant().isAfter(earliest)) {
        offsets.add(transition.getOffsetAfter());
      }
    }
    for (ZoneOffsetTransitionRule rule : rules.getTransitionRules()) {
      offsets.add(rule.getOffsetBefore());
      offsets.add(rule.getOffsetAfter());
    }
    return offsets;
  }
}
