package dev.tidemark.pipelines;

/** Placeholder. */
public final class Tidemark {
  private Tidemark() {}

  public static void main(String[] args) {}
}
