#include <stdio.h>

int main(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		printf("%d: %s\n", i, argv[i]);
	return argc > 1 ? 0 : 1; // done
}
/* aé */ x+=y<<2; a->b[3]|=~c&&d||!e;
    
        
