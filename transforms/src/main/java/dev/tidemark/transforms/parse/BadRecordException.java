package dev.tidemark.transforms.parse;

/** Says why a record cannot be parsed; the message becomes the dead letter's reason. */
public final class BadRecordException extends Exception {

  private static final long serialVersionUID = 1L;

  public BadRecordException(String reason) {
    super(reason);
  }
}
