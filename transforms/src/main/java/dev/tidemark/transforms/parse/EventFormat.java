package dev.tidemark.transforms.parse;

import dev.tidemark.transforms.model.Event;
import java.io.Serializable;

/** Turns one text record into an {@link Event}, or says why it cannot. */
public interface EventFormat extends Serializable {

  /**
   * Parses {@code raw}.
   *
   * @throws BadRecordException with the reason, when a field is missing or malformed
   */
  Event parse(String raw) throws BadRecordException;
}
