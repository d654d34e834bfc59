import { boot } from '../../kit/boot.tsx'
import { CompressTool } from '../tools/compress.tsx'

boot(() => <CompressTool />)
