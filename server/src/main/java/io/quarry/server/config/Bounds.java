package io.quarry.server.config;

/** The lower bounds settings share, each failing with the message that names the setting. */
final class Bounds {
  private Bounds() {}

  /** Fails with "{@code setting} must be at least 1" when {@code value} is below 1. */
  static void atLeastOne(long value, String setting) {
    if (value < 1) {
      throw new IllegalArgumentException(setting + " must be at least 1");
    }
  }

  /** Fails with "{@code setting} must be positive" when {@code value} is below 1. */
  static void positive(long value, String setting) {
    if (value < 1) {
      throw new IllegalArgumentException(setting + " must be positive");
    }
  }
}
