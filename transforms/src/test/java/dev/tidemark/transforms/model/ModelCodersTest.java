package dev.tidemark.transforms.model;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.join.JoinedRecord;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.joda.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every value type's coder: a round trip gives an equal value, it encodes deterministically, it
 * survives Java serialization, and it is the coder Beam finds through {@code @DefaultCoder}.
 */
class ModelCodersTest {

  private static final Instant T = new Instant(1586489566000L);
  private static final WindowPane PANE = new WindowPane(T, T.plus(5000), Timing.LATE, 2, true);
  private static final SourcePosition KAFKA = new SourcePosition("clicks", 3, 17);

  static Stream<Arguments> values() {
    return Stream.of(
        Arguments.of(
            Event.class, Event.Coder.of(), new Event(EventKey.of("01"), T, 7, "01,1586489566000")),
        Arguments.of(
            Event.class,
            Event.Coder.of(),
            new Event(EventKey.of("01"), T, 7, "01,1586489566000", T.minus(1001), 12, KAFKA)),
        Arguments.of(
            Event.class,
            Event.Coder.of(),
            new Event(
                EventKey.of("web-1", "200"),
                T,
                0,
                "1586489566000,web-1,200,100,0.5",
                T.minus(1001),
                12,
                KAFKA,
                Arrays.asList(100L, 7, 0.5, 1.5f, "text", true, new BigDecimal("12.30"), null))),
        Arguments.of(DeadLetter.class, DeadLetter.Coder.of(), new DeadLetter("oops", "why")),
        Arguments.of(DeadLetter.class, DeadLetter.Coder.of(), new DeadLetter("oops", "why", KAFKA)),
        Arguments.of(WindowPane.class, WindowPane.Coder.of(), PANE),
        Arguments.of(
            WindowResult.class,
            WindowResult.Coder.of(),
            new WindowResult(EventKey.of("k"), PANE, 3, 9)),
        Arguments.of(
            JoinedRecord.class, JoinedRecord.Coder.of(), new JoinedRecord("b1", PANE, true, "{}")),
        Arguments.of(ArrivedLine.class, ArrivedLine.Coder.of(), new ArrivedLine("x", T, 4)),
        Arguments.of(
            ArrivedLine.class, ArrivedLine.Coder.of(), ArrivedLine.fromKafka("x", KAFKA, null)),
        Arguments.of(
            ArrivedLine.class,
            ArrivedLine.Coder.of(),
            new ArrivedLine("01,1", T, 4, null, new Event(EventKey.of("01"), T, 0, "01,1"))),
        Arguments.of(SourcePosition.class, SourcePosition.Coder.of(), KAFKA),
        Arguments.of(EventKey.class, EventKey.Coder.of(), EventKey.of("01")),
        Arguments.of(EventKey.class, EventKey.Coder.of(), EventKey.of("hitch", "es_sink")),
        Arguments.of(
            WindowResult.class,
            WindowResult.Coder.of(),
            new WindowResult(EventKey.of("i", "op"), PANE, 3, 9)));
  }

  @ParameterizedTest(name = "{2}")
  @MethodSource("values")
  <T> void roundTripsAndIsTheDefault(Class<T> type, Coder<T> coder, T value) throws Exception {
    CoderProperties.coderDecodeEncodeEqual(coder, value);
    CoderProperties.coderDeterministic(coder, value, value);
    CoderProperties.coderSerializable(coder);
    assertThat(CoderRegistry.createDefault().getCoder(TypeDescriptor.of(type)), equalTo(coder));
  }
}
