/**
 * The attack suite of issue 24: a real server on 127.0.0.1 attacked as an outsider and as a plain
 * user, each attack asserting the safe answer and a healthy server afterwards (see {@link
 * io.quarry.server.attack.AttackSuiteTest} for which test covers which attack).
 */
package io.quarry.server.attack;
