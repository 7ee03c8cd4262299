/* The symbol-visibility macro: the library is built hidden by default and exports only this. */
#ifndef SHOUTAN_EXPORT_H
#define SHOUTAN_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define SHT_EXPORT __attribute__((visibility("default")))
#else
#define SHT_EXPORT
#endif

#endif
