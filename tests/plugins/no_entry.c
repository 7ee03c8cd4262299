/* A shared object that is no Shoutan plugin: it lacks the entry symbol. */
__attribute__((visibility("default"))) int not_a_plugin(void);

int
not_a_plugin(void)
{
	return 42;
}
