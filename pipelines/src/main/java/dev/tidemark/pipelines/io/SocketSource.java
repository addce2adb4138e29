package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.io.ReadSocketLines;
import dev.tidemark.transforms.model.ArrivedLine;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.ParseEvents;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * {@code socket://HOST:PORT[?reconnect=false]}: lines from a TCP server; a line longer than {@code
 * --maxRecordBytes} is a dead letter that names its number on the connection.
 */
public final class SocketSource implements Source {

  private final String host;
  private final int port;
  private final boolean reconnect;
  private final int maxRecordBytes;

  SocketSource(String host, int port, boolean reconnect, int maxRecordBytes) {
    this.host = host;
    this.port = port;
    this.reconnect = reconnect;
    this.maxRecordBytes = maxRecordBytes;
  }

  @Override
  public String describe() {
    return "socket://" + host + ":" + port;
  }

  @Override
  public boolean startsFromImpulse() {
    return true;
  }

  @Override
  public SourceRead read(EventFormat format, EventTimeSettings settings) {
    settings.requireNoPartitionField("a socket is one input");
    ReadSocketLines socket =
        ReadSocketLines.from(host, port)
            .withEventTime(format.eventTimes())
            .withMaxOutOfOrderness(settings.maxOutOfOrderness())
            .withIdleTimeout(settings.idleTimeout())
            .withMaxFutureSkew(settings.maxFutureSkew())
            .withMaxLineBytes(maxRecordBytes);
    ReadSocketLines lines = reconnect ? socket : socket.endWhenClosed();
    ParseEvents<ArrivedLine> parse =
        ParseEvents.withPositions(format).withMaxFutureSkew(settings.maxFutureSkew());
    return new SourceRead.Parsed(
        new PTransform<PBegin, PCollectionTuple>() {
          @Override
          public PCollectionTuple expand(PBegin begin) {
            return begin.apply("ReadSocket", lines).apply("Parse", parse);
          }
        });
  }
}
