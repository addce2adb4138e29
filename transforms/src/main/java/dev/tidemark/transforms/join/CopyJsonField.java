package dev.tidemark.transforms.join;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Merges JSON objects by copying one field of the right record into a field of the left one, or
 * null there when nothing matched. Scenario S4: the coupon's {@code receiveUserId} becomes the
 * order's {@code orderSalesmanId}.
 *
 * <pre>{@code
 * CopyJsonField.from("receiveUserId").into("orderSalesmanId")
 * }</pre>
 *
 * <p>Both records have already been parsed as JSON objects by the parse step, so a malformed one
 * here is a bug, and fails loudly.
 */
public final class CopyJsonField implements MergeRecords {

  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String rightField;
  private final String leftField;

  private CopyJsonField(String rightField, String leftField) {
    this.rightField = rightField;
    this.leftField = leftField;
  }

  /** Starts a merge that copies {@code rightField}; {@link Into#into} names the target. */
  public static Into from(String rightField) {
    return leftField -> new CopyJsonField(rightField, leftField);
  }

  /** The second step of {@link #from}. */
  @FunctionalInterface
  public interface Into {
    CopyJsonField into(String leftField);
  }

  @Override
  public String merge(String left, @Nullable String right) {
    ObjectNode merged = (ObjectNode) read(left);
    JsonNode value = right == null ? null : read(right).get(rightField);
    merged.set(leftField, value == null ? merged.nullNode() : value);
    return merged.toString();
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a parsed record is not JSON any more: " + json, e);
    }
  }
}
