import { boot } from '../boot.tsx'
import { CompressTool } from '../tools/compress.tsx'

boot(() => <CompressTool />)
