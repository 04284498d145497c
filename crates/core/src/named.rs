//! The one way an enum that appears in data is named: [`Named`], implemented by the
//! [`named!`](crate::named!) macro. `name()` is always the data id (rule-set fields, result
//! dictionaries, the Python API: `"full_house"`), `label()` the words a person reads
//! (`"full house"`); they are the same unless the macro is given a label.

/// An enum whose values are named in data.
pub trait Named: Copy + Sized + 'static {
    /// Every value, in declaration (code) order.
    const VALUES: &'static [Self];
    /// The data id.
    fn name(self) -> &'static str;
    /// Plain words for people.
    fn label(self) -> &'static str;
    /// The value whose [`Named::name`] is `name`.
    fn from_name(name: &str) -> Option<Self> {
        Self::VALUES.iter().copied().find(|v| v.name() == name)
    }
    /// Every data id, in order.
    fn names() -> Vec<&'static str> {
        Self::VALUES.iter().map(|v| v.name()).collect()
    }
    /// Every label, in order.
    fn labels() -> Vec<&'static str> {
        Self::VALUES.iter().map(|v| v.label()).collect()
    }
}

/// Implements [`Named`] for a field-less enum, and the same `ALL`, `name()`, `label()` and
/// `from_name()` as inherent items (usable in `const` contexts and without importing the
/// trait): `named!(Row { Front => "front", ... })`, or `Trips => "trips" / "three of a kind"`
/// where the words differ from the data id.
#[macro_export]
macro_rules! named {
    ($ty:ident { $($var:ident => $name:literal $(/ $label:literal)?),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: [$ty; [$(stringify!($var)),+].len()] = [$($ty::$var),+];
            /// The data id of this value (rule-set data, results, the Python API).
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$var => $name),+
                }
            }
            /// Plain words for this value.
            pub const fn label(self) -> &'static str {
                match self {
                    $($ty::$var => $crate::named!(@label $name $(, $label)?)),+
                }
            }
            /// The value whose data id is `name`.
            pub fn from_name(name: &str) -> Option<$ty> {
                match name {
                    $($name => Some($ty::$var),)+
                    _ => None,
                }
            }
        }
        impl $crate::named::Named for $ty {
            const VALUES: &'static [$ty] = &$ty::ALL;
            fn name(self) -> &'static str {
                $ty::name(self)
            }
            fn label(self) -> &'static str {
                $ty::label(self)
            }
            fn from_name(name: &str) -> Option<$ty> {
                $ty::from_name(name)
            }
        }
    };
    (@label $name:literal) => {
        $name
    };
    (@label $name:literal, $label:literal) => {
        $label
    };
}
