package dev.tidemark.transforms.testing;

/**
 * Gives a test the one {@link KafkaBroker} of its test run ({@link SharedService}). A test names
 * its topics so that they differ from every other test's. Test classes run two at a time: a class
 * that uses the broker holds {@link #LOCK} to read, and one that stops it holds it to write, so no
 * other test sees the broker go.
 */
public final class SharedKafkaBroker extends SharedService<KafkaBroker> {

  /** The {@code @ResourceLock} of the tests that use the broker. */
  public static final String LOCK = "tidemark-kafka-broker";

  public SharedKafkaBroker() {
    super(KafkaBroker.class, KafkaBroker::start);
  }
}
