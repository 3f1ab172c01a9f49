package io.quarry.server.audit;

/**
 * Where audit events go. Recording never blocks and never fails the audited action: the trail
 * queues the event and writes it a moment later ({@link AuditLog}).
 */
@FunctionalInterface
public interface AuditTrail {
  /** A trail that records nothing: tools and tests that start parts of a server without a store. */
  AuditTrail NONE = event -> {};

  void record(AuditEvent event);

  /**
   * Records a failed or locked login attempt from {@code address}; a trail may record only so many
   * of them ({@link FailedLoginBudget}), this one records every one.
   */
  default void recordFailedLogin(AuditEvent event, String address) {
    record(event);
  }
}
