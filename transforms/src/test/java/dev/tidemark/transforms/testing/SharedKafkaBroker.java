package dev.tidemark.transforms.testing;

/**
 * Gives a test the one {@link KafkaBroker} of its test run ({@link SharedService}). A test names
 * its topics so that they differ from every other test's.
 */
public final class SharedKafkaBroker extends SharedService<KafkaBroker> {

  public SharedKafkaBroker() {
    super(KafkaBroker.class, KafkaBroker::start);
  }
}
