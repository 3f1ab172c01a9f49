/** Test helpers shared by the codecs' test packages (a settable clock). */
package io.quarry.codecs.testing;
