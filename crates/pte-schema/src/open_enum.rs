//! Open enums: every wire value is representable, so values this crate does not
//! know (from newer exporters) survive a read then write unchanged.

macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        $name:ident : $repr:ty { $( $(#[$vmeta:meta])* $variant:ident = $value:expr ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub $repr);

        #[allow(missing_docs)]
        impl $name {
            $( $(#[$vmeta])* pub const $variant: $name = $name($value); )*

            /// Every value the schema declares, in declaration order.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),*];

            /// The schema's name for this value, or `None` for an undeclared value.
            pub fn name(self) -> Option<&'static str> {
                match self.0 {
                    $( $value => Some(stringify!($variant)), )*
                    _ => None,
                }
            }

            /// Whether the schema declares this value.
            pub fn is_known(self) -> bool {
                self.name().is_some()
            }

            /// Looks a value up by its schema name.
            pub fn from_name(name: &str) -> Option<$name> {
                match name {
                    $( stringify!($variant) => Some($name::$variant), )*
                    _ => None,
                }
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "{}({})", stringify!($name), self.0),
                }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Debug::fmt(self, f)
            }
        }
    };
}

pub(crate) use open_enum;
