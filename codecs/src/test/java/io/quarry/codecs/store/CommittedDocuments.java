package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/** What an index of an {@link EventStore} committed to Lucene, read from disk. */
final class CommittedDocuments {
  private CommittedDocuments() {}

  /** The documents of the last Lucene commit of {@code index}'s buckets under {@code data}. */
  static long of(Path data, String index) throws IOException {
    long documents = 0;
    try (Stream<Path> buckets =
        Files.list(data.resolve("indexes").resolve(index).resolve("buckets"))) {
      for (Path bucket : buckets.filter(Files::isDirectory).toList()) {
        try (Directory directory = FSDirectory.open(bucket)) {
          if (DirectoryReader.indexExists(directory)) {
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
              documents += reader.numDocs();
            }
          }
        }
      }
    }
    return documents;
  }
}
