package dev.tidemark.pipelines.config;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/** The options of a pipeline that reads one source. */
public interface SourceOptions extends TidemarkOptions {

  @Description(
      "Where records come from: file:PATH (a file or glob, replayed in file order), "
          + "socket://HOST:PORT (add ?reconnect=false to end when the sender closes), "
          + "kafka://HOST:PORT/TOPIC, generator: (e.g. generator:records=1000,keys=5,"
          + "outOfOrderness=2s,late=0.01,bad=0.01,rate=100,seed=1; in the pipeline's input "
          + "format) or sample: (the pipeline's bundled sample; sample:NAME for another, e.g. "
          + "sample:s2-orders.json)")
  @Default.String("sample:")
  String getSource();

  void setSource(String value);

  @Description(
      "For a recording of several partitions (JSON records, e.g. a Kafka topic's, each naming its"
          + " partition in this field): replay them under one watermark per partition, the"
          + " lowest of those not quiet for --idleTimeout, as a live run over the topic has it;"
          + " explain also says which partition held the watermark back, and which never had data")
  String getPartitionField();

  void setPartitionField(String value);

  @Description(
      "For a recording (file:, generator:, sample:): also write what happens to it, window by"
          + " window (explain's timeline), as one self-contained HTML page to this file")
  String getReport();

  void setReport(String value);
}
