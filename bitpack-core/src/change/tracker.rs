//! The tracker a derived `ChangeGroups` type keeps: one record per group.

use super::record::GroupRecord;

/// The sender's records for one value of a derived [`super::ChangeGroups`]
/// type: a [`GroupRecord`] per top-level group (in wire order), and the
/// trackers of the nested change-group types, as a list of pairs
/// (`(first, (second, ()))`, in wire order).
///
/// Derived types name it as their `Tracker`; write code against
/// `<T as ChangeGroups>::Tracker` rather than this type, so a change in the
/// type's groups does not break it.
///
/// ```
/// # extern crate bitpack_core as bitpack;
/// use bitpack::change::GroupTracker;
///
/// let tracker: GroupTracker<40> = GroupTracker::default();
/// assert!(tracker.records.iter().all(|record| record.version() == 0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupTracker<const GROUPS: usize, Nested = ()> {
    /// One record per top-level group, in wire order.
    pub records: [GroupRecord; GROUPS],
    /// The trackers of nested change-group fields, as `(first, (second, ()))`.
    pub nested: Nested,
}

// By hand: the derive would ask `[GroupRecord; GROUPS]: Default`, which
// the standard library gives only up to 32 elements.
impl<const GROUPS: usize, Nested: Default> Default for GroupTracker<GROUPS, Nested> {
    #[inline]
    fn default() -> Self {
        GroupTracker { records: [GroupRecord::default(); GROUPS], nested: Nested::default() }
    }
}
