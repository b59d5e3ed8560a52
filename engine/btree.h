// A B+tree index in InnoDB's page format (architecture layer 6).
//
// The root page never moves: it is allocated first, in the non-leaf ("top") segment whose
// header it carries next to the leaf segment's. Leaf pages come from the leaf segment,
// non-leaf pages from the top segment.
//
// Insert follows btr_cur_optimistic_insert and btr_page_split_and_insert:
//   - a record goes into its leaf if it fits, reorganising the page first when only its
//     garbage is in the way; a clustered leaf keeps 1/16 of the page free for updates while
//     inserts run in one direction (the split then happens early);
//   - a full page splits at the insertion point when PAGE_LAST_INSERT shows an ascending
//     (or descending) run, otherwise at its middle record; the new page becomes the right
//     sibling (the left one for a descending run), and a node pointer to the upper half goes
//     into the parent, which may split in turn; a full root moves its records to a new page
//     and becomes that page's parent, one level higher.
// Delete removes the record; a page left below half full merges into a sibling under the same
// parent when the sibling has room, an empty page leaves the tree, and a root left with one
// child takes that child's records.
//
// Node pointers hold the child's lowest key as it was when the pointer was made: every key
// in a subtree is >= its pointer's key and < the next pointer's. The first pointer of the
// leftmost page of each non-leaf level carries the MIN_REC flag and compares below every key.
//
// Concurrency: one writer at a time (the caller serialises writes; readers may run beside the
// page cleaner). Changes to pages happen inside a mini-transaction.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "engine/btr_page.h"
#include "engine/buffer_pool.h"
#include "engine/key.h"
#include "engine/mtr.h"

namespace strata::engine {

struct BtreeStats {
  std::uint64_t splits = 0, root_raises = 0, merges = 0, discards = 0, lifts = 0, reorganizations = 0;
};

class Btree {
 public:
  Btree(BufferPool& pool, Tablespace& space, const IndexShape& shape, ondisk::PageNo root)
      : pool_(pool), space_(space), shape_(shape), root_(root), clock_(FirstClock()) {}

  // Creates the index's segments and its root (an empty leaf); returns the root page.
  static Result<ondisk::PageNo> Create(Mtr& mtr, Tablespace& space, const IndexShape& shape);

  // AlreadyExists when a record with the same unique fields is present.
  Status Insert(const Tuple& record);
  // Removes the record whose first n_key fields equal `key`; NotFound when there is none.
  Status Delete(const Tuple& key);
  // Where GetMarked found a record: the page and the record's origin in it, and the tree's
  // modify clock then. While the clock has not moved, no page of the tree has changed, so the
  // record is still there.
  struct Position {
    ondisk::PageNo page{0};
    std::size_t cursor = 0;
    std::uint64_t clock = 0;
  };
  // Replaces the record with the same key: in place when the new record has the same size,
  // else by delete and insert. `deleted` sets or clears the record's delete mark. With `at`
  // still current, the record is taken from there rather than searched for.
  Status Update(const Tuple& record, bool deleted = false, const Position* at = nullptr);
  // Sets or clears the delete mark of the record whose first n_key fields equal `key`.
  Status SetDeleteMark(const Tuple& key, bool deleted);
  // The record whose first key.size() fields equal `key` (the first such one), delete-marked
  // or not.
  Result<std::optional<Tuple>> Get(const Tuple& key);
  struct Marked {
    Tuple record;
    bool deleted = false;
  };
  Result<std::optional<Marked>> GetMarked(const Tuple& key, Position* at = nullptr);
  // Moves whenever a page of the tree is latched for writing (InnoDB's modify clock, for the
  // whole tree: the tree has one writer at a time, under the database's write lock).
  std::uint64_t modify_clock() const { return clock_.load(std::memory_order_relaxed); }
  // Searches from the root so far (for writing or reading).
  std::uint64_t searches() const { return searches_.load(std::memory_order_relaxed); }
  // Visits records from the first >= `from` upwards (forward), or from the last <= `from`
  // downwards, comparing on from.size() fields (an empty tuple starts at an end), while `fn`
  // returns true. Delete-marked records are visited too; ScanMarked says which they are.
  Status Scan(const Tuple& from, bool forward, const std::function<bool(const Tuple&)>& fn);
  Status ScanMarked(const Tuple& from, bool forward, const std::function<bool(const Tuple&, bool deleted)>& fn);

  // Builds this index, which must be empty, bottom-up from records that arrive in
  // ascending key order (InnoDB's sorted index build, btr0bulk.cc): each level's pages are
  // filled left to right to 15/16 of their record space (innodb_fill_factor=100 keeps 1/16
  // free), a page's first record goes up as a node pointer, and the root is written last,
  // so that readers see the empty index until Finish. Each page is one mini-transaction; the
  // caller holds the database's write lock around Add and Finish.
  class BulkBuilder {
   public:
    explicit BulkBuilder(Btree& tree);
    Status Add(const Tuple& record);  // the caller guarantees ascending keys
    // A record already encoded in the leaf layout (extra bytes, then data); copied.
    Status Add(ondisk::ConstBytes record, std::size_t extra_size) {
      return Append(0, record, extra_size, t_.shape_.leaf.info_bits());
    }
    Status Finish();
    std::uint64_t pages() const { return pages_; }

   private:
    struct Pending {
      std::size_t offset = 0, size = 0, extra_size = 0;
      std::uint8_t info_bits = 0;
    };
    struct Level {
      std::vector<std::byte> arena;  // the bytes of the records waiting for the next page
      std::vector<Pending> records;
      std::size_t bytes = 0;
      std::uint64_t pages = 0;  // written so far
      ondisk::PageNo last{0};   // the last one, whose FIL_PAGE_NEXT the next one sets
    };
    Status Append(std::size_t level, ondisk::ConstBytes record, std::size_t extra_size, std::uint8_t info_bits);
    Status WriteLevelPage(std::size_t level);
    std::vector<RecordView> Views(const Level& l) const;
    Btree& t_;
    std::vector<Level> levels_;
    std::size_t budget_;
    std::uint64_t pages_ = 0;
  };

  // Checks the whole tree (see btree_check.cc); the first problem found.
  Status Check();

  ondisk::PageNo root() const { return root_; }
  const IndexShape& shape() const { return shape_; }
  const BtreeStats& stats() const { return stats_; }
  Tuple DecodeRecord(const BtrPage& page, std::size_t origin) const;
  // The bytes that update a record in place in the row version it was written in, when it is
  // not the newest one and InnoDB would keep it (Update compares the size).
  std::optional<ondisk::EncodedRecord> InPlaceForm(const BtrPage& page, std::size_t origin, const Tuple& record) const;

 private:
  struct Step {
    ondisk::PageNo page;
    std::size_t cursor;  // record the search stopped at
  };
  using Path = std::vector<Step>;  // root first

  const ondisk::RecordLayout& LayoutAt(std::uint16_t level) const { return level == 0 ? shape_.leaf : shape_.node; }
  Result<BtrPage> WritePage(Mtr& mtr, ondisk::PageNo n);
  // The page latched for writing in `mtr`, the modify clock moved.
  Result<ondisk::MutableBytes> Latch(Mtr& mtr, ondisk::PageNo n);
  // ScanMarked, with where each record is.
  Status Visit(const Tuple& from, bool forward,
               const std::function<bool(const Tuple&, bool deleted, ondisk::PageNo, std::size_t)>& fn);
  // Descends to `level`, latching each page for writing; the last step is on that level.
  Result<Path> Descend(Mtr& mtr, const Tuple& key, std::size_t n_fields, std::uint16_t level, bool strict);
  // Descends to the leaf record whose first n_key fields equal `key`, latched for writing;
  // NotFound when there is none.
  Result<Path> FindRecord(Mtr& mtr, const Tuple& key);
  Status InsertAtLevel(Mtr& mtr, const Tuple& key, const RawRecord& record, std::uint16_t level);
  Status SplitPage(Mtr& mtr, const Path& path, const Tuple& key, std::size_t record_size, bool by_size);
  struct Split {
    bool up;            // the new page is the right sibling (else the left)
    std::size_t split;  // index (from 1) of the upper half's first record; 0: the new record starts it
  };
  Split ChooseSplit(BtrPage& page, const std::vector<RawRecord>& records, std::size_t k, std::size_t after,
                    const Tuple& key, std::size_t record_size, bool by_size) const;
  Result<ondisk::PageNo> RaiseRoot(Mtr& mtr);
  Result<ondisk::PageNo> NewPage(Mtr& mtr, std::uint16_t level);
  Status FreePage(Mtr& mtr, ondisk::PageNo page, std::uint16_t level);
  Result<std::optional<Tuple>> UniqueConflict(const Tuple& record);
  RawRecord NodePointer(const BtrPage& child, std::size_t first, ondisk::PageNo child_no, std::uint8_t info) const;
  Status Compress(Mtr& mtr, const Path& path, std::size_t depth);
  Status RemovePointer(Mtr& mtr, const Path& path, std::size_t depth);
  Status Unlink(Mtr& mtr, BtrPage& page);
  Status LiftRoot(Mtr& mtr);
  Status DeleteAt(Mtr& mtr, const Path& path);

  BufferPool& pool_;
  Tablespace& space_;
  IndexShape shape_;
  ondisk::PageNo root_;
  BtreeStats stats_;
  // The modify clock; each tree's starts 2^32 above the last one's, so that a Position of a
  // dropped tree never matches a new one made at the same address.
  std::atomic<std::uint64_t> clock_;
  std::atomic<std::uint64_t> searches_{0};
  static std::uint64_t FirstClock() {
    static std::atomic<std::uint64_t> trees{0};
    return (trees.fetch_add(1, std::memory_order_relaxed) + 1) << 32;
  }
};

// The child page a node pointer leads to (its last 4 bytes).
ondisk::PageNo ChildOf(const BtrPage& page, std::size_t origin);
void SetChild(BtrPage& page, std::size_t origin, ondisk::PageNo child);

}  // namespace strata::engine
